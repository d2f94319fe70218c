/* gpu.c - the local GPUs and driver, as a CUDA program started here would see them.
 *
 * Asked in another process, under a time limit: NVML first (milliseconds), with
 * CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER applied as the runtime applies them
 * (visible_devices.c); the CUDA Driver API (cuInit, a fifth of a second on an H200) only
 * where NVML is missing, fails, or cannot reproduce the runtime's answer. fatcheck has no
 * build-time CUDA dependency: without a driver or a GPU the answer is a message. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "detect.h"
#include "fatcheck.h"
#include "pipe_io.h"

/* What the asking process is doing, for the message when it runs out of time. */
enum {
    STAGE_START,
    STAGE_NVML,
    STAGE_DRIVER_LOAD,
    STAGE_CU_INIT,
    STAGE_DRIVER_QUERY,
    STAGE_DONE,
};

/* Shared with the asking process (an anonymous shared mapping): its answer, and its stage
 * while it works. */
typedef struct detection {
    volatile pid_t worker;   /* the process that asks (a grandchild: see fc_detect_gpus_ext) */
    volatile int stage;
    int status;
    fc_detect_method by;
    size_t n;
    char err[320];
    char note[320];          /* what CUDA_VISIBLE_DEVICES left out */
    char driver_reason[320]; /* why NVML gave way to the Driver API */
    unsigned not_judged;     /* GPUs left out: no compute capability that can be read */
    fc_target targets[64];
} detection;

/* The few driver API entry points used here, with their documented signatures (cuda.h). */
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_driver_version_fn)(int *);
typedef int (*cu_device_count_fn)(int *);
typedef int (*cu_device_get_fn)(int *, int);
typedef int (*cu_device_name_fn)(char *, int, int);
typedef int (*cu_device_attribute_fn)(int *, int, int);
typedef int (*cu_error_name_fn)(int, const char **);

enum {
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

static const char *error_name(void *lib, int code, char *buf, size_t size)
{
    cu_error_name_fn name = (cu_error_name_fn)dlsym(lib, "cuGetErrorName");
    const char *s = NULL;
    if (name && name(code, &s) == 0 && s)
        return s;
    snprintf(buf, size, "CUDA error %d", code);
    return buf;
}

/* " (CUDA_VISIBLE_DEVICES=...)" when it is set, for messages about finding no GPU. */
static void visible_hint(char *buf, size_t size)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    buf[0] = '\0';
    if (v)
        snprintf(buf, size, " (CUDA_VISIBLE_DEVICES=\"%.64s\")", v);
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
            *c = '?';
}

/* The Driver API's answer: it applies CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER itself. */
static fc_status detect_driver(detection *d, size_t max)
{
    d->n = 0;
    d->by = FC_DETECT_DRIVER;
    d->stage = STAGE_DRIVER_LOAD;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(d->err, sizeof d->err, "no CUDA driver (libcuda.so.1 could not be loaded)");
        return FC_ERR_UNSUPPORTED;
    }
    /* libcuda is left loaded: unloading a driver library that started threads is unsafe. */
    cu_init_fn init = (cu_init_fn)dlsym(lib, "cuInit");
    cu_driver_version_fn version = (cu_driver_version_fn)dlsym(lib, "cuDriverGetVersion");
    cu_device_count_fn count = (cu_device_count_fn)dlsym(lib, "cuDeviceGetCount");
    cu_device_get_fn get = (cu_device_get_fn)dlsym(lib, "cuDeviceGet");
    cu_device_name_fn name = (cu_device_name_fn)dlsym(lib, "cuDeviceGetName");
    cu_device_attribute_fn attr = (cu_device_attribute_fn)dlsym(lib, "cuDeviceGetAttribute");
    if (!init || !version || !count || !get || !name || !attr) {
        snprintf(d->err, sizeof d->err, "libcuda.so.1 lacks the driver API entry points");
        return FC_ERR_UNSUPPORTED;
    }
    int driver = 0, rc, devices = 0;
    char ebuf[32], hint[96];
    if ((rc = version(&driver)) != 0) {
        snprintf(d->err, sizeof d->err, "cuDriverGetVersion failed: %s", error_name(lib, rc, ebuf, sizeof ebuf));
        return FC_ERR_UNSUPPORTED;
    }
    d->stage = STAGE_CU_INIT;
    rc = init(0);
    d->stage = STAGE_DRIVER_QUERY;
    visible_hint(hint, sizeof hint);
    if (rc != 0) {
        snprintf(d->err, sizeof d->err, "the CUDA driver (CUDA %d.%d) found no usable GPU%s: %s", driver / 1000,
                 driver % 1000 / 10, hint, error_name(lib, rc, ebuf, sizeof ebuf));
        return FC_ERR_UNSUPPORTED;
    }
    if ((rc = count(&devices)) != 0 || devices <= 0) {
        snprintf(d->err, sizeof d->err, "the CUDA driver (CUDA %d.%d) reports no GPU%s", driver / 1000,
                 driver % 1000 / 10, hint);
        return FC_ERR_UNSUPPORTED;
    }
    for (int i = 0; i < devices && d->n < max; i++) {
        int dev = 0, major = 0, minor = 0;
        fc_target *t = &d->targets[d->n];
        memset(t, 0, sizeof *t);
        if (get(&dev, i) != 0 || attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) != 0 ||
            attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) != 0 || major < 1 || major > 99 ||
            minor < 0 || minor > 9) {
            /* Said: the other GPUs judged alone passed it over without a word. */
            size_t len = strlen(d->note);
            d->not_judged++;
            snprintf(d->note + len, sizeof d->note - len, "%sGPU %d is not judged: the CUDA driver gave no compute "
                     "capability fatcheck can read for it", len ? "; " : "", i);
            continue;
        }
        if (name(t->name, (int)sizeof t->name, dev) != 0)
            t->name[0] = '\0';
        t->name[sizeof t->name - 1] = '\0';
        t->cc = (unsigned)(major * 10 + minor);
        t->tegra = fc_cc_is_tegra(t->cc); /* not CU_DEVICE_ATTRIBUTE_INTEGRATED: GB10 is integrated but takes desktop sm_120 code */
        t->driver_cuda = driver;
        snprintf(t->source, sizeof t->source, "GPU %d", i);
        d->n++;
    }
    if (!d->n) {
        snprintf(d->err, sizeof d->err, "no GPU answered the CUDA driver%s%.280s", d->note[0] ? ": " : "", d->note);
        return FC_ERR_UNSUPPORTED;
    }
    return FC_OK;
}

/* NVML's answer. False when only the driver can give it (d->driver_reason says why). */
static bool detect_nvml(detection *d, size_t max, fc_status *st)
{
    d->stage = STAGE_NVML;
    d->by = FC_DETECT_NVML;
    fc_gpu_list *list = calloc(1, sizeof *list);
    if (!list) {
        snprintf(d->driver_reason, sizeof d->driver_reason, "NVML: out of memory");
        return false;
    }
    bool no_cuda = false;
    char err[sizeof d->err];
    fc_status ls = fc_nvml_list(list, &no_cuda, err, sizeof err);
    if (ls != FC_OK) {
        free(list);
        if (no_cuda) { /* the driver cannot do better: it is the library that is missing */
            snprintf(d->err, sizeof d->err, "%s", err);
            *st = FC_ERR_UNSUPPORTED;
            return true;
        }
        snprintf(d->driver_reason, sizeof d->driver_reason, "%s", err);
        return false;
    }
    fc_visible vis;
    fc_visible_devices(list, getenv("CUDA_VISIBLE_DEVICES"), getenv("CUDA_DEVICE_ORDER"), &vis);
    if (vis.ask_driver) {
        snprintf(d->driver_reason, sizeof d->driver_reason, "%s", vis.note);
        free(list);
        return false;
    }
    snprintf(d->note, sizeof d->note, "%s", vis.note);
    for (size_t i = 0; i < vis.n && d->n < max; i++) {
        const fc_gpu *g = &list->gpus[vis.picks[i].gpu];
        fc_target *t = &d->targets[d->n++];
        memset(t, 0, sizeof *t);
        t->cc = g->cc; /* a MIG device runs its parent's code */
        t->tegra = fc_cc_is_tegra(t->cc);
        t->driver_cuda = list->driver_cuda;
        const char *name = g->name, *uuid = g->uuid;
        if (vis.picks[i].mig >= 0) {
            const fc_mig_device *m = &g->mig[vis.picks[i].mig];
            name = m->name[0] ? m->name : g->name;
            uuid = m->uuid;
        }
        snprintf(t->name, sizeof t->name, "%s", name);
        snprintf(t->uuid, sizeof t->uuid, "%s", uuid);
        snprintf(t->source, sizeof t->source, "GPU %zu", i);
    }
    *st = FC_OK;
    if (!d->n) {
        int v = list->driver_cuda;
        if (vis.note[0])
            snprintf(d->err, sizeof d->err, "%s", vis.note);
        else
            snprintf(d->err, sizeof d->err, "the NVIDIA driver (CUDA %d.%d) lists no GPU", v / 1000, v % 1000 / 10);
        *st = FC_ERR_UNSUPPORTED;
    }
    free(list);
    return true;
}

static void child_main(detection *d, const fc_detect_options *o)
{
    size_t max = sizeof d->targets / sizeof *d->targets;
    fc_status st = FC_ERR_UNSUPPORTED;
    if (o->method == FC_DETECT_DRIVER || !detect_nvml(d, max, &st)) {
        if (o->method == FC_DETECT_NVML)
            snprintf(d->err, sizeof d->err, "%s", d->driver_reason);
        else
            st = detect_driver(d, max);
    }
    d->status = st;
    d->stage = STAGE_DONE;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Waits for the asking process's one-byte "done" until DEADLINE; 1 done, 0 died without
 * it, -1 out of time with none. An answer already there counts however late it is looked
 * at: fc_detect_finish may come long after the deadline. */
static int wait_done(int fd, double deadline)
{
    for (;;) {
        double left = deadline - now_ms();
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, left <= 0 ? 0 : left > 1e6 ? 1000000 : (int)left + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return 0;
        if (r == 0) {
            if (left <= 0)
                return -1;
            continue; /* the deadline is checked again */
        }
        char c;
        ssize_t got = read(fd, &c, 1);
        if (got < 0 && errno == EINTR)
            continue;
        return got == 1;
    }
}

/* Where the asking process was when it ran out of time or died. */
static const char *stage_text(int stage)
{
    switch (stage) {
    case STAGE_NVML: return "in NVML (libnvidia-ml.so.1)";
    case STAGE_DRIVER_LOAD: return "loading libcuda.so.1";
    case STAGE_CU_INIT: return "in the CUDA driver's cuInit";
    case STAGE_DRIVER_QUERY: return "asking the CUDA driver";
    default: return "starting";
    }
}

void fc_detect_options_init(fc_detect_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = FC_DETECT_AUTO;
    o->timeout_ms = FC_DETECT_TIMEOUT_MS;
}

/* A detection under way: the page the asking process answers in, the pipe it says "done"
 * on, and when its time is up (counted from its start). */
struct fc_detection {
    detection *page;
    int done_fd;
    double deadline;
    unsigned timeout_ms;
};

fc_status fc_detect_start(fc_detection **out, const fc_detect_options *opts, char *err, size_t err_size)
{
    *out = NULL;
    fc_detect_options defaults;
    if (!opts) {
        fc_detect_options_init(&defaults);
        opts = &defaults;
    }
    fc_detection *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, err_size, "cannot look for GPUs: out of memory");
        return FC_ERR_NOMEM;
    }
    h->timeout_ms = opts->timeout_ms ? opts->timeout_ms : FC_DETECT_TIMEOUT_MS;
    detection *d = mmap(NULL, sizeof *d, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (d == MAP_FAILED) {
        snprintf(err, err_size, "cannot look for GPUs: %s", strerror(errno));
        free(h);
        return FC_ERR_NOMEM;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, err_size, "cannot look for GPUs: %s", strerror(errno));
        munmap(d, sizeof *d);
        free(h);
        return FC_ERR_IO;
    }
    /* The asking process is a grandchild: its parent exits at once and is reaped here, and
     * it is left to init (or the caller's subreaper) to reap. A driver's teardown when that
     * process exits (4 to 5 ms with NVML on two H200s) then runs beside fatcheck's own work,
     * and a process killed while stuck in the kernel leaves no zombie behind here. */
    fflush(NULL);
    h->deadline = now_ms() + h->timeout_ms;
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_size, "cannot look for GPUs: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        munmap(d, sizeof *d);
        free(h);
        return FC_ERR_IO;
    }
    if (pid == 0) {
        pid_t worker = fork();
        if (worker == 0) {
            close(fds[0]);
            int done_fd = fc_child_stdio(fds[1]);
            child_main(d, opts);
            (void)!write(done_fd, "x", 1);
            _exit(0);
        }
        d->worker = worker;
        _exit(worker > 0 ? 0 : 1);
    }
    close(fds[1]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || d->worker <= 0) {
        snprintf(err, err_size, "cannot look for GPUs: the asking process could not be started");
        close(fds[0]);
        munmap(d, sizeof *d);
        free(h);
        return FC_ERR_IO;
    }
    h->page = d;
    h->done_fd = fds[0];
    *out = h;
    return FC_OK;
}

fc_status fc_detect_finish(fc_detection *h, fc_target *out, size_t *n, size_t max, fc_detect_info *info, char *err,
                           size_t err_size)
{
    *n = 0;
    fc_detect_info scratch;
    if (!info)
        info = &scratch;
    memset(info, 0, sizeof *info);
    detection *d = h->page;
    int done = wait_done(h->done_fd, h->deadline);
    /* Out of time with the pipe still open: the worker still holds it, so it is alive and
     * its pid is still its own. */
    if (done < 0)
        kill(d->worker, SIGKILL);
    close(h->done_fd);
    fc_status st = FC_ERR_UNSUPPORTED;
    if (done < 0) {
        info->timed_out = info->no_answer = true;
        snprintf(err, err_size, "no answer about the local GPUs within %g s: stuck %s", h->timeout_ms / 1000.0,
                 stage_text(d->stage));
    } else if (!done || d->stage != STAGE_DONE) {
        info->no_answer = true;
        snprintf(err, err_size, "the process asking about the local GPUs died %s", stage_text(d->stage));
    } else {
        /* The asking process's libraries could write anywhere in its memory, this page
         * included: nothing read back is trusted further than its bounds. */
        info->answered_by = d->by == FC_DETECT_NVML || d->by == FC_DETECT_DRIVER ? d->by : FC_DETECT_AUTO;
        d->note[sizeof d->note - 1] = '\0';
        d->driver_reason[sizeof d->driver_reason - 1] = '\0';
        snprintf(info->note, sizeof info->note, "%s", d->note);
        info->not_judged = d->not_judged < 64 ? d->not_judged : 64;
        if (info->answered_by == FC_DETECT_DRIVER)
            snprintf(info->driver_reason, sizeof info->driver_reason, "%s", d->driver_reason);
        size_t got = d->n;
        for (size_t i = 0; d->status == FC_OK && i < got && i < max && i < sizeof d->targets / sizeof *d->targets; i++) {
            fc_target t = d->targets[i];
            if (t.cc < 10 || t.cc > 999)
                continue;
            t.name[sizeof t.name - 1] = '\0';
            t.uuid[sizeof t.uuid - 1] = '\0';
            t.source[sizeof t.source - 1] = '\0';
            out[(*n)++] = t;
        }
        if (*n)
            st = FC_OK;
        else {
            d->err[sizeof d->err - 1] = '\0';
            snprintf(err, err_size, "%s", d->err[0] ? d->err : "no GPU found");
        }
    }
    munmap(d, sizeof *d);
    free(h);
    return st;
}

fc_status fc_detect_gpus_ext(fc_target *out, size_t *n, size_t max, const fc_detect_options *opts,
                             fc_detect_info *info, char *err, size_t err_size)
{
    fc_detection *h;
    *n = 0;
    if (info)
        memset(info, 0, sizeof *info);
    fc_status st = fc_detect_start(&h, opts, err, err_size);
    return st == FC_OK ? fc_detect_finish(h, out, n, max, info, err, err_size) : st;
}

fc_status fc_detect_gpus(fc_target *out, size_t *n, size_t max, char *err, size_t err_size)
{
    return fc_detect_gpus_ext(out, n, max, NULL, NULL, err, err_size);
}
