/* test_changed.c - files cut short while they are scanned: no crash, one report that names
 * the file and says it changed, and the caller's own SIGBUS handling left as it was.
 *
 * The file is truncated at a set point through the library's own callbacks: on_file runs
 * after the file is opened and measured, before anything is read; on_object runs while the
 * object's bytes are still in use (the kernel view and --extract read them there). Before
 * the mappings survived this (src/util/file_map.c), each case died of SIGBUS; every case runs in
 * a child process, so that a crash is one failed test. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fatcheck.h"
#include "tap.h"
#include "testutil.h"

static char dir[] = "/tmp/fc_changed_XXXXXX";

/* Copies fixture NAME into the temporary folder; returns the copy's path. */
static const char *copy_fixture(const char *name, char *out, size_t size)
{
    size_t n;
    unsigned char *data = read_fixture(name, &n);
    snprintf(out, size, "%s/%s", dir, name);
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        printf("Bail out! cannot write %s\n", out);
        exit(1);
    }
    free(data);
    return out;
}

typedef struct scan_log {
    const char *path;
    off_t cut_on_open;       /* -1: not then */
    off_t cut_in_callback;   /* -1: not then */
    bool touch_on_open;      /* set its modification time back a day, size unchanged */
    bool read_kernels, decompress, kernels_on_threads;
    int objects, changed_reports, other_errors;
    int kernels_io, kernels_ok, decompress_io;
    char first_report[1024];
} scan_log;

static bool says_changed(const char *msg)
{
    return msg && strstr(msg, "changed while being read");
}

static void note(scan_log *l, const char *msg)
{
    if (says_changed(msg)) {
        if (!l->changed_reports++)
            snprintf(l->first_report, sizeof l->first_report, "%s", msg);
    } else {
        l->other_errors++;
        printf("#   other report: %s\n", msg);
    }
}

static void on_file(void *ctx, const char *path)
{
    scan_log *l = ctx;
    if (l->cut_on_open >= 0 && strcmp(path, l->path) == 0 && truncate(path, l->cut_on_open) != 0)
        printf("#   truncate failed\n");
    if (l->touch_on_open) {
        struct timespec t[2] = {{0, UTIME_OMIT}, {time(NULL) - 86400, 0}};
        utimensat(AT_FDCWD, path, t, 0);
    }
}

static int on_object(void *ctx, const fc_object *o)
{
    scan_log *l = ctx;
    l->objects++;
    if (o->error)
        note(l, o->error);
    if (l->cut_in_callback >= 0 && truncate(l->path, l->cut_in_callback) != 0)
        printf("#   truncate failed\n");
    if (l->kernels_on_threads) {
        fc_options opts;
        fc_options_init(&opts);
        opts.threads = 4;
        fc_kernel_list **lists;
        fc_status *status;
        size_t n;
        if (fc_object_kernels(&lists, &status, &n, o, &opts) == FC_OK)
            for (size_t i = 0; i < n; i++) {
                l->kernels_io += status[i] == FC_ERR_IO;
                l->kernels_ok += status[i] == FC_OK;
            }
        fc_object_kernels_free(lists, status, n);
    }
    for (size_t c = 0; c < o->n_containers; c++)
        for (size_t e = 0; e < o->containers[c].n_entries; e++) {
            const fc_entry *en = &o->containers[c].entries[e];
            if (l->read_kernels) {
                fc_kernel_list *kl = NULL;
                fc_status st = fc_entry_kernels(&kl, o, en, NULL);
                l->kernels_io += st == FC_ERR_IO;
                l->kernels_ok += st == FC_OK;
                fc_kernel_list_free(kl);
            }
            if (l->decompress && o->image) { /* what --extract does */
                void *out = NULL;
                size_t len = 0;
                fc_status st = fc_decompress(&out, &len,
                                             en->compression, (const char *)o->image + en->payload_offset, (size_t)en->stored_size, en->uncompressed_size, 1u << 30);
                l->decompress_io += st == FC_ERR_IO;
                free(out);
            }
        }
    return 0;
}

static int on_error(void *ctx, const fc_error *err)
{
    note(ctx, err->message);
    return 0;
}

/* Runs the scan L describes in a child; the child writes L back through a pipe. False when
 * the child died (*SIG gets the signal). */
static bool scan_in_child(scan_log *l, int *sig)
{
    int p[2];
    if (pipe(p) != 0)
        return false;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        fc_options opts;
        fc_options_init(&opts);
        opts.on_file = on_file;
        opts.on_file_ctx = l;
        opts.threads = 1;
        fc_scan(l->path, &opts, on_object, on_error, l);
        fflush(stdout);
        _exit(write(p[1], l, sizeof *l) == (ssize_t)sizeof *l ? 0 : 1);
    }
    close(p[1]);
    scan_log back;
    ssize_t got = read(p[0], &back, sizeof back);
    close(p[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    *sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (got != (ssize_t)sizeof back)
        return false;
    *l = back;
    return true;
}

/* One case: FIXTURE cut to CUT bytes when opened (or, with IN_CALLBACK, while its object is
 * being read); expects one report of the change and nothing else. */
static scan_log run_case(const char *what, const char *fixture, off_t cut, bool in_callback, bool kernels,
                         bool decompress, bool threads)
{
    char path[4096];
    scan_log l;
    memset(&l, 0, sizeof l);
    l.path = copy_fixture(fixture, path, sizeof path);
    l.cut_on_open = in_callback ? -1 : cut;
    l.cut_in_callback = in_callback ? cut : -1;
    l.read_kernels = kernels;
    l.decompress = decompress;
    l.kernels_on_threads = threads;
    int sig = 0;
    bool done = scan_in_child(&l, &sig);
    if (!ok(done, "%s: no crash", what))
        printf("#   the scan died of signal %d (%s)\n", sig, strsignal(sig));
    ok(done && l.changed_reports == 1 && l.other_errors == 0 && strncmp(l.first_report, path, strlen(path)) == 0,
       "%s: one report, naming the file: %s", what, l.first_report);
    unlink(path);
    return l;
}

static sigjmp_buf caller_jump;
static volatile sig_atomic_t caller_handler_ran;

static void caller_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    caller_handler_ran = 1;
    siglongjmp(caller_jump, 1);
}

/* During a scan that installs the library's handler, the caller's mapping faults: the
 * caller's handler must get it, and be in place again after the scan. */
static int fault_in_callback(void *ctx, const fc_object *o)
{
    (void)o;
    volatile const char *page = ctx;
    if (!sigsetjmp(caller_jump, 1))
        (void)page[0];
    return 0;
}

static void caller_handler_case(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct sigaction sa, before, after;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = caller_handler;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
        sigaction(SIGBUS, NULL, &before);
        char own[4096];
        snprintf(own, sizeof own, "%s/own", dir);
        FILE *f = fopen(own, "wb");
        fputs("a page that will be gone", f);
        fclose(f);
        int fd = open(own, O_RDONLY);
        const char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
        truncate(own, 0);
        char path[4096];
        fc_scan(copy_fixture("compress_size.fatbin", path, sizeof path), NULL, fault_in_callback, NULL,
                (void *)page);
        sigaction(SIGBUS, NULL, &after);
        _exit(caller_handler_ran && after.sa_sigaction == caller_handler && before.sa_sigaction == caller_handler ? 0
                                                                                                                 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
       "a SIGBUS of the caller's own during a scan goes to the caller's handler, which is in place after");

    /* Without a handler of the caller's, such a SIGBUS still ends the process, as SIGBUS.
     * (The default action set here: sanitizers install handlers of their own.) */
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        signal(SIGBUS, SIG_DFL);
        char own[4096];
        snprintf(own, sizeof own, "%s/own2", dir);
        FILE *f = fopen(own, "wb");
        fputs("a page that will be gone", f);
        fclose(f);
        int fd = open(own, O_RDONLY);
        const char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
        truncate(own, 0);
        char path[4096];
        fc_scan(copy_fixture("compress_size.fatbin", path, sizeof path), NULL, fault_in_callback, NULL,
                (void *)page);
        _exit(0);
    }
    waitpid(pid, &status, 0);
    ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS, "without one, it ends the process as SIGBUS would");

    /* What the two children wrote, removed here: they end by _exit or by the signal. */
    static const char *const left[] = {"own", "own2", "compress_size.fatbin"};
    for (size_t i = 0; i < sizeof left / sizeof *left; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, left[i]);
        unlink(path);
    }
}

int main(void)
{
    if (!mkdtemp(dir)) {
        printf("Bail out! cannot make a temporary folder\n");
        return 1;
    }
    /* libmulti.so keeps its section headers at its end: libelf reads them through the mapping. */
    run_case("a shared library cut short before it is read", "libmulti.so", 4096, false, false, false, false);
    run_case("a static archive cut short before it is read", "librdc.a", 5000, false, false, false, false);
    run_case("a PTX file cut short before it is read", "kernels.ptx", 100, false, false, false, false);
    run_case("a cubin cut short before it is read", "kernels.sm_90.cubin", 100, false, false, false, false);

    /* The kernel view reads payloads through the mapping, in the callback. */
    scan_log l = run_case("a fat binary cut short while its kernels are read", "compress_size.fatbin", 64, true, true,
                          false, false);
    ok(l.kernels_io == 2 && l.kernels_ok == 0, "its two images could not be read: FC_ERR_IO (%d, %d)", l.kernels_io,
       l.kernels_ok);
    l = run_case("a library cut short while its kernels are read on threads", "libmulti.so", 4096, true, false,
                 false, true);
    ok(l.kernels_io > 0, "its images could not be read: FC_ERR_IO (%d)", l.kernels_io);
    l = run_case("a cubin cut short while its kernels are read", "kernels.sm_90.cubin", 100, true, true, false,
                 false);
    ok(l.kernels_io == 1, "its image could not be read: FC_ERR_IO");
    l = run_case("a fat binary cut short while its images are extracted", "compress_none.fatbin", 64, true, false,
                 true, false);
    ok(l.decompress_io == 2, "fc_decompress on its image answers FC_ERR_IO (%d)", l.decompress_io);

    /* Rewritten in place at the same size: told by its modification time. */
    char path[4096];
    scan_log t;
    memset(&t, 0, sizeof t);
    t.path = copy_fixture("libmulti.so", path, sizeof path);
    t.cut_on_open = t.cut_in_callback = -1;
    t.touch_on_open = true;
    int sig;
    ok(scan_in_child(&t, &sig) && t.changed_reports == 1 && t.other_errors == 0 && t.objects == 1 &&
           strstr(t.first_report, "modified during the scan"),
       "a file modified under the scan, its size unchanged: one report (%s)", t.first_report);
    unlink(path);

    caller_handler_case();
    int removed = rmdir(dir) == 0 ? 0 : errno;
    ok(removed == 0, "the temporary folder is left empty and removed (%s)", strerror(removed));
    return tap_done();
}
