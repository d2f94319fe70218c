/* main.c - the fatcheck command: options, exit codes, and the scan loop. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
    "Usage: fatcheck [OPTION]... FILE|DIR...\n"
    "List the CUDA GPU code in ELF libraries, executables, objects, static archives,\n"
    "fat binaries, cubins and PTX files; directories are searched recursively.\n"
    "\n"
    "Output (default: a summary per file):\n"
    "  -l, --list            one line per image (entry) of every container\n"
    "      --json            one JSON document (schema: docs/json.md)\n"
    "      --list-elf        the cubins, exactly as cuobjdump --list-elf prints them\n"
    "      --list-ptx        the PTX, exactly as cuobjdump --list-ptx prints them\n"
    "\n"
    "Inputs:\n"
    "      --no-embedded     do not search other sections for containers kept as data\n"
    "      --no-recurse      treat a directory as an error instead of searching it\n"
    "  -j, --threads N       threads for the embedded search (default: all CPUs)\n"
    "\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and exit\n"
    "\n"
    "Exit status: 0 all inputs read; 2 usage error; 3 some input could not be read\n"
    "or decoded (the others are still reported); 4 internal or output error.\n"
    "(1 is reserved for a predicted load failure.)\n"
    "\n"
    "Examples:\n"
    "  fatcheck /usr/local/cuda/lib64/libcublasLt.so.13\n"
    "  fatcheck --json ~/.cache/torch_extensions > report.json\n"
    "  fatcheck --list-elf libtorch_cuda.so\n";

typedef struct run {
    renderer *r;
    int input_errors;
} run;

static int on_object(void *ctx, const fc_object *obj)
{
    run *rn = ctx;
    rn->r->object(rn->r, obj);
    if (obj->error)
        rn->input_errors++;
    return 0;
}

static int on_error(void *ctx, const fc_error *err)
{
    run *rn = ctx;
    rn->r->error(rn->r, err);
    rn->input_errors++;
    return 0;
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "fatcheck: %s%s%s%s", what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    fputs("\nTry 'fatcheck --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* Strict: digits only, no sign, no trailing text, within [1, max]. */
static int parse_count(const char *s, unsigned long max, unsigned long *out)
{
    if (!s || !*s)
        return -1;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    errno = 0;
    unsigned long v = strtoul(s, NULL, 10);
    if (errno || v < 1 || v > max)
        return -1;
    *out = v;
    return 0;
}

enum { OPT_JSON = 256, OPT_LIST_ELF, OPT_LIST_PTX, OPT_NO_EMBEDDED, OPT_NO_RECURSE };

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"list", no_argument, NULL, 'l'},
        {"json", no_argument, NULL, OPT_JSON},
        {"list-elf", no_argument, NULL, OPT_LIST_ELF},
        {"list-ptx", no_argument, NULL, OPT_LIST_PTX},
        {"no-embedded", no_argument, NULL, OPT_NO_EMBEDDED},
        {"no-recurse", no_argument, NULL, OPT_NO_RECURSE},
        {"threads", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    fc_options opts;
    fc_options_init(&opts);
    output_mode mode = OUT_SUMMARY;
    int modes = 0, list_elf = 0, list_ptx = 0;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":lj:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            mode = OUT_ENTRIES, modes |= 1;
            break;
        case OPT_JSON:
            mode = OUT_JSON, modes |= 2;
            break;
        case OPT_LIST_ELF:
            mode = OUT_CUOBJDUMP, modes |= 4, list_elf = 1;
            break;
        case OPT_LIST_PTX:
            mode = OUT_CUOBJDUMP, modes |= 4, list_ptx = 1;
            break;
        case OPT_NO_EMBEDDED:
            opts.scan_embedded = false;
            break;
        case OPT_NO_RECURSE:
            opts.recurse = false;
            break;
        case 'j': {
            unsigned long n;
            if (parse_count(optarg, 256, &n) != 0)
                return usage_error("invalid thread count (expected 1 to 256):", optarg);
            opts.threads = (unsigned)n;
            break;
        }
        case 'h':
            fputs(usage_text, stdout);
            return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_INTERNAL;
        case 'V':
            printf("fatcheck %s\n", FC_VERSION_STRING);
            return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_INTERNAL;
        case ':':
            return usage_error("option needs an argument:", argv[optind - 1]);
        default:
            return usage_error("unknown option", argv[optind - 1]);
        }
    }
    if (modes & (modes - 1))
        return usage_error("choose one of -l, --json and --list-elf/--list-ptx", NULL);
    if (optind >= argc)
        return usage_error("no input files", NULL);

    renderer *r = NULL;
    switch (mode) {
    case OUT_SUMMARY: r = render_summary_new(stdout, stderr); break;
    case OUT_ENTRIES: r = render_entries_new(stdout, stderr); break;
    case OUT_JSON: r = render_json_new(stdout, stderr); break;
    case OUT_CUOBJDUMP: r = render_cuobjdump_new(stdout, stderr, list_elf, list_ptx); break;
    }
    if (!r) {
        fputs("fatcheck: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    run rn = {r, 0};
    int internal = 0;
    for (int i = optind; i < argc; i++) {
        r->begin_input(r, argv[i]);
        int rc = fc_scan(argv[i], &opts, on_object, on_error, &rn);
        if (rc < 0) {
            fprintf(stderr, "fatcheck: %s: %s\n", argv[i], fc_status_name((fc_status)rc));
            internal = 1;
        }
    }
    r->finish(r);
    render_free(r);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "fatcheck: error writing output: %s\n", strerror(errno));
        return EXIT_INTERNAL;
    }
    if (internal)
        return EXIT_INTERNAL;
    return rn.input_errors ? EXIT_INPUT : EXIT_OK;
}
