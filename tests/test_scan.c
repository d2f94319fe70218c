/* test_scan.c - files, archives, cubins, PTX, embedded data and directory trees. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fatcheck.h"
#include "tap.h"
#include "testutil.h"

/* What a scan reported, flattened to text: one line per object, one per error. */
typedef struct seen {
    char text[16384];
    int objects, errors;
} seen;

static void append(seen *s, const char *str)
{
    strncat(s->text, str, sizeof s->text - strlen(s->text) - 1);
}

static const char *base(const char *path)
{
    const char *p = strrchr(path, '/');
    return p ? p + 1 : path;
}

/* "NAME[(MEMBER)] FORMAT: SECTION@OFF[arch arch] ...\n" */
static int on_object(void *ctx, const fc_object *o)
{
    seen *s = ctx;
    char line[4096];
    snprintf(line, sizeof line, "%s%s%s%s %s:", base(o->path), o->member ? "(" : "", o->member ? o->member : "",
             o->member ? ")" : "", fc_format_name(o->format));
    append(s, line);
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *c = &o->containers[i];
        snprintf(line, sizeof line, " %s@0x%llx%s[", c->section ? c->section : fc_origin_name(c->origin),
                 (unsigned long long)c->offset, c->origin == FC_ORIGIN_EMBEDDED ? "(embedded)" : "");
        append(s, line);
        for (size_t j = 0; j < c->n_entries; j++) {
            char name[32];
            if (j)
                append(s, " ");
            append(s, fc_entry_arch_name(name, sizeof name, &c->entries[j]));
        }
        append(s, "]");
    }
    if (o->error) {
        append(s, " ERROR ");
        append(s, o->error);
    }
    append(s, "\n");
    s->objects++;
    return 0;
}

static int on_error(void *ctx, const fc_error *e)
{
    seen *s = ctx;
    append(s, "error: ");
    append(s, e->message);
    append(s, "\n");
    s->errors++;
    return 0;
}

static seen scan(const char *path, const fc_options *opts)
{
    seen s;
    memset(&s, 0, sizeof s);
    fc_scan(path, opts, on_object, on_error, &s);
    return s;
}

static void expect(const char *fixture, const char *want)
{
    seen s = scan(fixture_path(fixture), NULL);
    is_str(s.text, want, "%s", fixture);
}

static void test_files(void)
{
    expect("app", "app elf: .nv_fatbin@0x2010[sm_86] .nv_fatbin@0x2608[sm_86 compute_86]\n");
    expect("libmulti.so", "libmulti.so elf: .nv_fatbin@0x2028[sm_75] .nv_fatbin@0x2620[sm_80 compute_80] "
                          ".nv_fatbin@0x34c0[sm_90 compute_90]\n");
    expect("rdc_main.o", "rdc_main.o elf: __nv_relfatbin@0x3c8[sm_80 compute_80]\n");
    expect("librdc.a", "librdc.a(rdc_main.o) elf: __nv_relfatbin@0x3c8[sm_80 compute_80]\n"
                       "librdc.a(rdc_dev.o) elf: __nv_relfatbin@0x168[sm_80 compute_80]\n");
    expect("rdc_lto.o", "rdc_lto.o elf: __nv_relfatbin@0x168[lto_90]\n");
    expect("kernels.sm_90.cubin", "kernels.sm_90.cubin cubin: cubin@0x0[sm_90]\n");
    expect("kernels.sm_90a.cubin", "kernels.sm_90a.cubin cubin: cubin@0x0[sm_90a]\n");
    expect("kernels.sm_100.cubin", "kernels.sm_100.cubin cubin: cubin@0x0[sm_100]\n");
    expect("kernels.sm_100f.cubin", "kernels.sm_100f.cubin cubin: cubin@0x0[sm_100f]\n");
    expect("kernels.ptx", "kernels.ptx ptx: ptx@0x0[compute_89]\n");
    expect("ptx_only.fatbin", "ptx_only.fatbin fatbin: fatbin@0x0[compute_80]\n");
    expect("libembedded.so", "libembedded.so elf: .rodata@0x2050(embedded)[sm_80 compute_80] "
                             ".fc_blobs@0x3e38(embedded)[compute_80] .fc_blobs@0x40c0(embedded)[compute_80]\n");
    expect("make-fixtures.sh",
           "error: " FIXTURES_DIR "/make-fixtures.sh: not an ELF file, archive, fat binary, cubin, PTX file or package\n");
    expect("no-such-file", "error: " FIXTURES_DIR "/no-such-file: cannot open: No such file or directory\n");

    fc_options opts;
    fc_options_init(&opts);
    opts.embedded = FC_EMBEDDED_NONE;
    seen s = scan(fixture_path("libembedded.so"), &opts);
    is_str(s.text, "libembedded.so elf:\n", "libembedded.so without the embedded search: nothing, but reported");
    opts.embedded = FC_EMBEDDED_ALL;
    opts.threads = 1;
    s = scan(fixture_path("libembedded.so"), &opts);
    ok(strstr(s.text, ".fc_blobs@0x40c0(embedded)") != NULL, "one thread finds the same embedded containers");
    /* By default a section is searched when its head holds a container: with a head of 64
     * bytes, .rodata's (0x50 into the section) is missed, while .fc_blobs starts with one. */
    opts.embedded = FC_EMBEDDED_AUTO;
    opts.embedded_probe_size = 64;
    opts.threads = 0;
    s = scan(fixture_path("libembedded.so"), &opts);
    is_str(s.text, "libembedded.so elf: .fc_blobs@0x3e38(embedded)[compute_80] .fc_blobs@0x40c0(embedded)[compute_80]\n",
           "auto search: a section whose head holds a container is searched in full, others are not");
    opts.embedded = FC_EMBEDDED_ALL;
    s = scan(fixture_path("libembedded.so"), &opts);
    ok(strstr(s.text, ".rodata@0x2050(embedded)") != NULL, "a full search finds the container further in");
    /* ... unless a pointer to it says it is there (elf_pointers.c): libkept_deep.so registers
     * code, and a relative relocation points at a fat binary 8 KiB into .rodata, another into
     * the padding before it. With a 4 KiB head, the section is searched whole for it. */
    opts.embedded = FC_EMBEDDED_AUTO;
    opts.embedded_probe_size = 4096;
    s = scan(fixture_path("rules/libkept_deep.so"), &opts);
    is_str(s.text, "libkept_deep.so elf: .nv_fatbin@0x4ef0[sm_80] .nv_fatbin@0x54e8[sm_80] .rodata@0x4020(embedded)[sm_90]\n",
           "auto search: a section a relocation points into at a container is searched whole");
    {
        /* The same pointer moved 16 bytes back, into the padding: nothing says it is there. */
        size_t n;
        unsigned char *img = read_fixture("rules/libkept_deep.so", &n), *at = NULL;
        static const unsigned char addend[8] = {0x20, 0x40};
        for (size_t i = 16; img && !at && i + 8 <= n; i += 8)
            if (memcmp(img + i, addend, 8) == 0 && img[i - 8] == 8 /* R_X86_64_RELATIVE */)
                at = img + i;
        ok(at != NULL, "libkept_deep.so has the relocation");
        if (at)
            at[0] = 0x10;
        seen m;
        memset(&m, 0, sizeof m);
        fc_scan_memory(img, n, "moved.so", &opts, on_object, on_error, &m);
        is_str(m.text, "moved.so elf: .nv_fatbin@0x4ef0[sm_80] .nv_fatbin@0x54e8[sm_80]\n",
               "a pointer that leads to no container does not make the search");
        free(img);
    }
    s = scan(fixture_path("rules/libkept_deep_many.so"), &opts);
    ok(strstr(s.text, "(embedded)[sm_90]") != NULL, "among 2,000 pointers into padding, the one to a container: %s",
       s.text);
    s = scan(fixture_path("rules/libkept_deep_relr.so"), &opts);
    ok(strstr(s.text, "(embedded)[sm_90]") != NULL, "a pointer packed in SHT_RELR (no addend) leads there too: %s",
       s.text);
    s = scan(fixture_path("rules/libkept_deep_cubin.so"), &opts);
    ok(strstr(s.text, ".rodata@0x4020[sm_90]") != NULL, "so is one a pointer leads to at a cubin: %s",
       s.text);
    opts.embedded_probe_size = 1u << 20;
    s = scan(fixture_path("rules/libkept_deep.so"), &opts);
    ok(strstr(s.text, ".rodata@0x4020(embedded)[sm_90]") != NULL, "the default head holds it all");
    opts.embedded = FC_EMBEDDED_NONE;
    opts.embedded_probe_size = 4096;
    s = scan(fixture_path("rules/libkept_deep.so"), &opts);
    ok(strstr(s.text, "(embedded)") == NULL, "no search, no pointers followed");

    /* LTO-IR details. */
    size_t n;
    unsigned char *buf = read_fixture("rdc_lto.o", &n);
    seen m;
    memset(&m, 0, sizeof m);
    fc_scan_memory(buf, n, "mem.o", NULL, on_object, on_error, &m);
    is_str(m.text, "mem.o elf: __nv_relfatbin@0x168[lto_90]\n", "fc_scan_memory reads an image like a file");
    free(buf);
}

static int lto_check(void *ctx, const fc_object *o)
{
    const fc_entry *e = &o->containers[0].entries[0];
    *(int *)ctx = e->kind == FC_IMAGE_LTOIR && e->raw_kind == 8 && e->obfuscated &&
                  e->options && strcmp(e->options, "-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1") == 0;
    return 0;
}

static int count_objects(void *ctx, const fc_object *o)
{
    (void)o;
    (*(int *)ctx)++;
    return 0;
}

static int stop_now(void *ctx, const fc_object *o)
{
    (void)o;
    (*(int *)ctx)++;
    return 42;
}

/* Stops the scan with the value *CTX holds. */
static int stop_with(void *ctx, const fc_object *o)
{
    (void)o;
    return *(int *)ctx;
}

static int stop_on_error(void *ctx, const fc_error *e)
{
    (void)e;
    return *(int *)ctx;
}

/* FC_STOP: a callback's stop is never read as a failure of the library's (libgit2's GIT_EUSER). */
static void test_stop_value(void)
{
    int value = FC_STOP;
    ok(FC_STOP != FC_OK && FC_STOP != FC_ERR_IO && FC_STOP != FC_ERR_FORMAT && FC_STOP != FC_ERR_LIMIT &&
           FC_STOP != FC_ERR_NOMEM && FC_STOP != FC_ERR_INVALID && FC_STOP != FC_ERR_UNSUPPORTED,
       "FC_STOP is no fc_status");
    ok(fc_scan(fixture_path("librdc.a"), NULL, stop_with, NULL, &value) == FC_STOP, "FC_STOP is returned");
    value = FC_ERR_NOMEM; /* a callback's own negative value is no out-of-memory of the library's */
    ok(fc_scan(fixture_path("librdc.a"), NULL, stop_with, NULL, &value) == FC_STOP,
       "a negative value from a callback comes back as FC_STOP");
    value = FC_ERR_IO;
    ok(fc_scan(fixture_path("no-such-file"), NULL, count_objects, stop_on_error, &value) == FC_STOP,
       "from the error callback too");
    unsigned char cubin_head[4] = {0x7f, 'E', 'L', 'F'};
    ok(fc_scan_memory(cubin_head, 4, "x", NULL, count_objects, stop_on_error, &value) == FC_STOP,
       "and from fc_scan_memory");
    is_str(fc_status_name((fc_status)FC_STOP), "stopped by a callback", "named");
}

static void test_details(void)
{
    int good = 0;
    fc_scan(fixture_path("rdc_lto.o"), NULL, lto_check, NULL, &good);
    ok(good, "rdc_lto.o: obfuscated LTO-IR with its compile options");
    int calls = 0;
    int rc = fc_scan(fixture_path("librdc.a"), NULL, stop_now, NULL, &calls);
    ok(rc == 42 && calls == 1, "a callback's nonzero return stops the scan and is returned");
    ok(fc_scan(NULL, NULL, count_objects, NULL, &calls) == FC_ERR_INVALID, "a NULL path is invalid");
}

static char tmp[64];

static void make_tree(void)
{
    strcpy(tmp, "/tmp/fatcheck-test-XXXXXX");
    if (!mkdtemp(tmp)) {
        printf("Bail out! mkdtemp\n");
        exit(1);
    }
    char p[512], q[4200];
    snprintf(p, sizeof p, "%s/sub", tmp);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/sub/loop", tmp);
    if (symlink("..", p) != 0)
        printf("# symlink failed\n");
    snprintf(p, sizeof p, "%s/sub/app", tmp);
    snprintf(q, sizeof q, "%s", fixture_path("app"));
    if (symlink(q, p) != 0)
        printf("# symlink failed\n");
    snprintf(p, sizeof p, "%s/a-link-to-app", tmp);
    if (symlink("sub/app", p) != 0)
        printf("# symlink failed\n");
    snprintf(p, sizeof p, "%s/fifo", tmp);
    mkfifo(p, 0644);
    snprintf(p, sizeof p, "%s/dangling", tmp);
    if (symlink("nowhere", p) != 0)
        printf("# symlink failed\n");
    snprintf(p, sizeof p, "%s/notes.txt", tmp);
    FILE *f = fopen(p, "w");
    fputs("not CUDA\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/empty", tmp);
    fclose(fopen(p, "w"));
}

static void test_tree(void)
{
    make_tree();
    alarm(20); /* a FIFO opened for reading would block: fail loudly instead */
    seen s = scan(tmp, NULL);
    char want[4096];
    snprintf(want, sizeof want, "app elf: .nv_fatbin@0x2010[sm_86] .nv_fatbin@0x2608[sm_86 compute_86]\n");
    is_str(s.text, want,
           "tree: the link to a directory not followed, the app found once through two links, FIFO, dangling "
           "link, text and empty files skipped");
    fc_options follow;
    fc_options_init(&follow);
    follow.follow_symlinks = true;
    s = scan(tmp, &follow);
    snprintf(want, sizeof want,
             "app elf: .nv_fatbin@0x2010[sm_86] .nv_fatbin@0x2608[sm_86 compute_86]\n"
             "error: %s/sub/loop: symlink loop back to %s, not followed\n",
             tmp, tmp);
    is_str(s.text, want, "tree, following symlinks: the loop is reported");
    char p[512];
    snprintf(p, sizeof p, "%s/fifo", tmp);
    s = scan(p, NULL);
    snprintf(want, sizeof want, "error: %s/fifo: not a regular file\n", tmp);
    is_str(s.text, want, "a FIFO named directly is an error, and is not opened");
    snprintf(p, sizeof p, "%s/empty", tmp);
    s = scan(p, NULL);
    snprintf(want, sizeof want, "error: %s/empty: empty file\n", tmp);
    is_str(s.text, want, "an empty file named directly is an error");
    fc_options opts;
    fc_options_init(&opts);
    opts.recurse = false;
    s = scan(tmp, &opts);
    snprintf(want, sizeof want, "error: %s: is a directory\n", tmp);
    is_str(s.text, want, "without recursion a directory is an error");
    alarm(0);

    seen all = scan(FIXTURES_DIR, NULL);
    ok(all.errors == 0, "fixtures directory: no errors (make-fixtures.sh and sources are skipped quietly)");
    is_u64(all.objects, 103, "fixtures directory: 90 files holding CUDA code (8 Windows ones in pe/, 10 ELF files "
                            "without usable section headers in noshdr/, 2 with PTX text in ptxtext/, 8 in runtime/, "
                            "34 in rules/, 5 of them in rules/choice/, 2 in merged/), "
                            "librdc.a and pe/kernels.lib as two members each, the three PyInstaller programs of pyinstaller/ "
                            "and app.pkg beside them two entries each (and app.exe its own code), and runtime/libhost13.so and "
                            "runtime/cudart13/libcudart.so.13, delivered for their runtime alone");

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        printf("# cleanup failed\n");
}

/* fc_options.ahead: a walk's readers hand each object they read to the hook, and on_object
 * gets it back as obj->ahead, in order, for the same object; every value is freed once,
 * delivered or not (a scan stopped early). */
typedef struct ahead_count {
    atomic_int made, freed;
    int delivered, with_ahead, mismatched, stop_after;
} ahead_count;

static void *label_ahead(void *ctx, const fc_object *o)
{
    ahead_count *a = ctx;
    atomic_fetch_add(&a->made, 1);
    return strdup(o->label);
}

static void free_ahead(void *ctx, void *ahead)
{
    ahead_count *a = ctx;
    atomic_fetch_add(&a->freed, 1);
    free(ahead);
}

static int check_ahead(void *ctx, const fc_object *o)
{
    ahead_count *a = ctx;
    a->delivered++;
    if (o->ahead) {
        a->with_ahead++;
        a->mismatched += strcmp(o->ahead, o->label) != 0;
    }
    return a->stop_after && a->delivered >= a->stop_after ? FC_STOP : 0;
}

static void test_ahead(void)
{
    fc_options opts;
    fc_options_init(&opts);
    opts.threads = 4;
    ahead_count a = {0};
    opts.ahead = label_ahead;
    opts.ahead_free = free_ahead;
    opts.ahead_ctx = &a;
    fc_scan(FIXTURES_DIR, &opts, check_ahead, NULL, &a);
    /* A file whose objects cannot all wait in its mapping (a PyInstaller program's entries are
     * held apart) is left to the walk: what was made for the ones kept is freed unseen. */
    ok(a.with_ahead > 0 && a.mismatched == 0 && a.with_ahead <= a.made && a.made - a.with_ahead <= 1 &&
           a.freed == a.made,
       "a walk on 4 threads: %d of %d objects came with what the hook made for them (%d made, %d freed, %d for "
       "another object)",
       a.with_ahead, a.delivered, (int)a.made, (int)a.freed, a.mismatched);
    ahead_count stop = {.stop_after = 10};
    opts.ahead_ctx = &stop;
    int rc = fc_scan(FIXTURES_DIR, &opts, check_ahead, NULL, &stop);
    ok(rc == FC_STOP && stop.delivered == 10 && stop.made > 10 && stop.freed == stop.made,
       "a walk stopped at its tenth object frees what was made for the rest (%d made, %d freed)", (int)stop.made,
       (int)stop.freed);
    ahead_count one = {0};
    opts.ahead_ctx = &one;
    opts.threads = 1;
    fc_scan(FIXTURES_DIR, &opts, check_ahead, NULL, &one);
    ok(one.delivered == a.delivered && one.made == 0 && one.with_ahead == 0,
       "on one thread the walk reads every file itself: no hook, the same %d objects", one.delivered);
}

int main(void)
{
    test_files();
    test_details();
    test_stop_value();
    test_tree();
    test_ahead();
    return tap_done();
}
