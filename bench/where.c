/* where.c - where a scan of a tree spends its time, file by file.
 *
 * Runs fc_scan over each PATH as fatcheck does (a tree walked, summaries only, no judging)
 * and notes when each file is reached (fc_options.on_file). The time from one file to the
 * next is charged to the first: its scan, and the walk up to the next file looked at. Prints
 * the total, the time of the files holding CUDA code and of the others, by size of charge,
 * and the files that cost most.
 *
 *   build/bench/where [-j N] [--no-embedded] [--top N] PATH...
 */
#include <fatcheck.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct mark {
    char *name;
    double at;
    bool cuda;
} mark;

typedef struct run {
    mark *marks;
    size_t n, cap;
    size_t objects, errors;
} run;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void on_file(void *ctx, const char *name)
{
    run *r = ctx;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 4096;
        mark *m = realloc(r->marks, cap * sizeof *m);
        if (!m) {
            perror("where");
            exit(2);
        }
        r->marks = m;
        r->cap = cap;
    }
    r->marks[r->n++] = (mark){strdup(name), now(), false};
}

static int on_object(void *ctx, const fc_object *obj)
{
    run *r = ctx;
    r->objects++;
    if (obj->n_containers && r->n) /* the file reached last is the one being scanned */
        r->marks[r->n - 1].cuda = true;
    return 0;
}

static int on_error(void *ctx, const fc_error *err)
{
    (void)err;
    ((run *)ctx)->errors++;
    return 0;
}

static int by_cost(const void *a, const void *b)
{
    double x = ((const mark *)a)->at, y = ((const mark *)b)->at; /* AT holds the charge here */
    return x < y ? 1 : x > y ? -1 : 0;
}

int main(int argc, char **argv)
{
    fc_options opts;
    fc_options_init(&opts);
    opts.recurse = true;
    size_t top = 15;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-j") == 0 && i + 1 < argc)
            opts.threads = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-embedded") == 0)
            opts.embedded = FC_EMBEDDED_NONE;
        else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc)
            top = (size_t)atoi(argv[++i]);
        else
            break;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: where [-j N] [--no-embedded] [--top N] PATH...\n");
        return 2;
    }
    run r = {0};
    opts.on_file = on_file;
    opts.on_file_ctx = &r;
    double start = now();
    for (; i < argc; i++)
        fc_scan(argv[i], &opts, on_object, on_error, &r);
    double end = now();
    /* Charges: each mark's time until the next (the last's until the end). */
    double first = r.n ? r.marks[0].at - start : end - start;
    double bucket[4] = {0}, cuda = 0, other = 0;
    size_t counts[4] = {0}, n_cuda = 0;
    static const char *const bucket_name[4] = {"< 20 us", "20-100 us", "0.1-1 ms", ">= 1 ms"};
    for (size_t k = 0; k < r.n; k++) {
        double c = (k + 1 < r.n ? r.marks[k + 1].at : end) - r.marks[k].at;
        r.marks[k].at = c;
        int b = c < 20e-6 ? 0 : c < 100e-6 ? 1 : c < 1e-3 ? 2 : 3;
        bucket[b] += c;
        counts[b]++;
        if (r.marks[k].cuda)
            cuda += c, n_cuda++;
        else
            other += c;
    }
    printf("total %.1f ms: %zu files looked at, %zu objects, %zu errors; %.1f ms before the first file\n",
           (end - start) * 1e3, r.n, r.objects, r.errors, first * 1e3);
    printf("files holding CUDA code: %zu, %.1f ms; the others: %zu, %.1f ms\n", n_cuda, cuda * 1e3, r.n - n_cuda,
           other * 1e3);
    for (int b = 0; b < 4; b++)
        printf("charged %-9s %7zu files %9.1f ms\n", bucket_name[b], counts[b], bucket[b] * 1e3);
    /* The files charged 20 us or more, by the end of their names (".so", ".h", ...). */
    struct { char ext[16]; size_t n; double t; } exts[64];
    size_t n_exts = 0;
    for (size_t k = 0; k < r.n; k++) {
        if (r.marks[k].at < 20e-6)
            continue;
        const char *base = strrchr(r.marks[k].name, '/');
        base = base ? base + 1 : r.marks[k].name;
        const char *dot = strrchr(base, '.');
        char ext[16];
        snprintf(ext, sizeof ext, "%s", dot && dot != base && strlen(dot) < 8 ? dot : strstr(base, ".so.") ? ".so.N" : "(none)");
        size_t e = 0;
        while (e < n_exts && strcmp(exts[e].ext, ext) != 0)
            e++;
        if (e == n_exts) {
            if (n_exts == 64)
                continue;
            snprintf(exts[n_exts].ext, sizeof exts[n_exts].ext, "%s", ext);
            exts[n_exts].n = 0;
            exts[n_exts++].t = 0;
        }
        exts[e].n++;
        exts[e].t += r.marks[k].at;
    }
    for (size_t e = 0; e < n_exts; e++)
        if (exts[e].t >= 2e-3)
            printf("charged >= 20 us: %-8s %6zu files %8.1f ms\n", exts[e].ext, exts[e].n, exts[e].t * 1e3);
    qsort(r.marks, r.n, sizeof *r.marks, by_cost);
    for (size_t k = 0; k < r.n && k < top; k++)
        printf("%9.3f ms %s%s\n", r.marks[k].at * 1e3, r.marks[k].cuda ? "[cuda] " : "", r.marks[k].name);
    for (size_t k = 0; k < r.n; k++)
        free(r.marks[k].name);
    free(r.marks);
    return 0;
}
