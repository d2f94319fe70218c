/* test_survey.c - the survey before a walk (src/input/survey.c): what it tells the walk of a
 * folder and of a file only while they are as it saw them (a folder changed since, a file
 * replaced, rewritten or cut since: review 4, F4), and a tree deeper than its workers' stacks
 * would hold when surveyed inside one another (review 4, F5). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fatcheck.h"
#include "survey.h"
#include "tap.h"
#include "testutil.h"

static void put_file(const char *path, const unsigned char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n) {
        printf("Bail out! cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

static const fc_dir_entry *entry(const fc_dir_entry *e, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0)
            return &e[i];
    return NULL;
}

/* Past the file system's timestamp tick (a few ms): a change made now shows in the times. */
static void next_tick(void)
{
    nanosleep(&(struct timespec){0, 30 * 1000 * 1000}, NULL);
}

static int count(void *ctx, const fc_object *obj)
{
    (void)obj;
    ++*(int *)ctx;
    return 0;
}

static int said;

static int count_error(void *ctx, const fc_error *err)
{
    (void)ctx;
    said++;
    if (said == 1)
        printf("# %.120s...\n", err->message);
    return 0;
}

static int no_error(void *ctx, const fc_error *err)
{
    (void)ctx;
    printf("# %s\n", err->message);
    return 0;
}

int main(void)
{
    size_t lib_size, text_size;
    unsigned char *lib = read_fixture("libmulti.so", &lib_size);
    unsigned char *cubin = read_fixture("kernels.sm_90.cubin", &text_size);
    char root[] = "/tmp/fc-survey-XXXXXX", path[4200];
    if (!mkdtemp(root))
        return 1;
    snprintf(path, sizeof path, "%s/a", root);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/a/lib.so", root);
    put_file(path, lib, lib_size);
    snprintf(path, sizeof path, "%s/a/k.cubin", root);
    put_file(path, cubin, text_size);
    snprintf(path, sizeof path, "%s/plain.txt", root);
    put_file(path, (const unsigned char *)"nothing\n", 8);

    fc_options o;
    fc_options_init(&o);
    o.threads = 2;
    fc_scan_ctx sc = {.opts = &o};
    next_tick();
    fc_survey *s = fc_survey_run(&sc, open(root, O_RDONLY | O_DIRECTORY), root);
    ok(s != NULL, "surveyed on two threads");
    struct stat st;
    const fc_dir_entry *listed = NULL, *e;
    size_t n = 0;
    stat(root, &st);
    bool found = fc_survey_listing(s, &st, root, &listed, &n);
    ok(found && n == 2, "the root's listing, as it is (%zu entries)", n);
    ok((e = entry(listed, n, "plain.txt")) && e->seen == FC_SEEN_NOTHING, "a text file: its head shows nothing");
    ok((e = entry(listed, n, "a")) && e->seen == FC_SEEN_LISTED, "a folder: listed");
    snprintf(path, sizeof path, "%s/a", root);
    stat(path, &st);
    ok(fc_survey_listing(s, &st, path, &listed, &n) && n == 2, "a's listing, as it is");
    const fc_dir_entry *k = entry(listed, n, "k.cubin"), *l = entry(listed, n, "lib.so");
    ok(k && k->seen == FC_SEEN_KEPT && l && l->seen == FC_SEEN_KEPT, "the cubin and the library: read whole, kept");
    struct stat kst, lst;
    snprintf(path, sizeof path, "%s/a/k.cubin", root);
    stat(path, &kst);
    snprintf(path, sizeof path, "%s/a/lib.so", root);
    stat(path, &lst);
    ok(fc_survey_still(k, &kst) && fc_survey_still(l, &lst), "both still the files read");
    /* Looked up again under their names when the survey ended: fresh, taken by the walk
     * without a system call. */
    const struct stat *then = NULL;
    const fc_dir_entry *fresh = NULL, *root_listed = NULL;
    size_t fresh_n = 0, root_n = 0;
    stat(root, &st);
    fc_survey_listing(s, &st, root, &root_listed, &root_n);
    snprintf(path, sizeof path, "%s/a", root);
    struct stat ast;
    stat(path, &ast);
    e = entry(root_listed, root_n, "a");
    ok(e && fc_survey_fresh_listing(e, path, &then, &fresh, &fresh_n) && fresh_n == 2 && fresh == listed &&
           then->st_ino == ast.st_ino,
       "a's listing: fresh when the survey ended");
    char kpath[4200], lpath[4200];
    snprintf(kpath, sizeof kpath, "%s/a/k.cubin", root);
    snprintf(lpath, sizeof lpath, "%s/a/lib.so", root);
    ok(fc_survey_fresh_file(k, kpath) && fc_survey_fresh_file(l, lpath) && fc_survey_fresh_file(k, kpath)->st_ino == kst.st_ino,
       "the files read whole: fresh when the survey ended");
    e = entry(root_listed, root_n, "plain.txt");
    ok(e && !fc_survey_fresh_file(e, path) && !fc_survey_fresh_listing(e, path, &then, &fresh, &fresh_n),
       "a file whose head showed nothing: neither");

    next_tick();
    /* The cubin replaced by rename (a new inode), the library rewritten in place and cut. */
    snprintf(path, sizeof path, "%s/a/k.new", root);
    put_file(path, cubin, text_size);
    char to[4200];
    snprintf(to, sizeof to, "%s/a/k.cubin", root);
    rename(path, to);
    stat(to, &kst);
    ok(!fc_survey_still(k, &kst), "a file replaced by rename since: not the one read");
    snprintf(path, sizeof path, "%s/a/lib.so", root);
    truncate(path, (off_t)lib_size / 2);
    stat(path, &lst);
    ok(!fc_survey_still(l, &lst), "a file cut since: not the one read");
    snprintf(path, sizeof path, "%s/a", root);
    stat(path, &st);
    ok(!fc_survey_listing(s, &st, path, &listed, &n), "a folder whose entries changed since: no listing (the walk lists it)");
    stat(root, &st);
    ok(fc_survey_listing(s, &st, root, &listed, &n), "its parent, unchanged: still listed");
    fc_survey_free(s);

    /* Surveyed under a name that leads elsewhere: nothing is fresh, the walk looks itself. */
    snprintf(path, sizeof path, "%s/a", root);
    s = fc_survey_run(&sc, open(path, O_RDONLY | O_DIRECTORY), root);
    stat(path, &st);
    ok(s && fc_survey_listing(s, &st, root, &listed, &n) && n == 2, "a surveyed under its parent's name");
    k = s ? entry(listed, n, "k.cubin") : NULL;
    ok(k && k->seen == FC_SEEN_KEPT && !fc_survey_fresh_file(k, kpath), "its file, looked up under the wrong name: not fresh");
    fc_survey_free(s);
    fc_scan_ctx_end(&sc);
    fc_survey_free(NULL);

    /* 66 chains of 1,000 folders, two with a cubin at the bottom, walked with a caller's
     * max_depth of 100,000 on two threads: its stack of tasks full, a worker surveys folders
     * inside one another, on a helper's 256 KiB stack, only so deep; the walk lists what the
     * survey left. */
    char deep[] = "/tmp/fc-survey-deep-XXXXXX";
    if (!mkdtemp(deep))
        return 1;
    for (int chain = 0; chain < 66; chain++) {
        int fd = open(deep, O_RDONLY | O_DIRECTORY);
        for (int level = 0; level < 1000 && fd >= 0; level++) {
            char name[16];
            snprintf(name, sizeof name, level ? "d" : "c%d", chain);
            mkdirat(fd, name, 0755);
            int sub = openat(fd, name, O_RDONLY | O_DIRECTORY);
            close(fd);
            fd = sub;
        }
        int out = fd >= 0 && chain < 2 ? openat(fd, "k.cubin", O_WRONLY | O_CREAT, 0644) : -1;
        if (chain < 2 && (out < 0 || write(out, cubin, text_size) != (ssize_t)text_size)) {
            printf("Bail out! cannot build the deep tree\n");
            return 1;
        }
        if (out >= 0)
            close(out);
        close(fd);
    }
    o.max_depth = 100000;
    int objects = 0;
    int rc = fc_scan(deep, &o, count, no_error, &objects);
    ok(rc == 0 && objects == 2, "66 chains 1,000 folders deep, max_depth 100,000, two threads: both cubins (rc %d, %d)", rc,
       objects);
    /* One chain of 8,000 folders: the walk recurses once a level, and 7,000 levels outgrew an
     * 8 MiB stack (review 5, G3). Past 2,048 it says so and goes no further. */
    char deeper[] = "/tmp/fc-survey-deeper-XXXXXX";
    if (!mkdtemp(deeper))
        return 1;
    int fd = open(deeper, O_RDONLY | O_DIRECTORY);
    for (int level = 0; level < 8000 && fd >= 0; level++) {
        mkdirat(fd, "d", 0755);
        int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = sub;
    }
    if (fd >= 0)
        close(fd);
    for (unsigned threads = 1; threads <= 2; threads++) {
        o.threads = threads;
        objects = 0;
        said = 0;
        rc = fc_scan(deeper, &o, count, count_error, &objects);
        ok(rc == 0 && objects == 0 && said == 1, "8,000 folders deep, max_depth 100,000, %u thread(s): stopped at "
           "2,048, said once (rc %d, %d errors)", threads, rc, said);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", root, deep, deeper);
    if (system(cmd) != 0)
        printf("# could not remove %s and %s\n", root, deep);
    free(lib);
    free(cubin);
    return tap_done();
}
