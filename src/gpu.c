/* gpu.c - the local GPUs and driver, through the CUDA Driver API loaded at run time.
 * fatcheck has no build-time CUDA dependency: without libcuda.so.1, or without a GPU, the
 * answer is a message, not a failure of the program. */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* What the detecting child sends back through its pipe. */
typedef struct detection {
    int status;
    size_t n;
    char err[256];
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

static fc_status detect(fc_target *out, size_t max, size_t *n, char *err, size_t err_size)
{
    *n = 0;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, err_size, "no CUDA driver (libcuda.so.1 could not be loaded)");
        return FC_ERR_UNSUPPORTED;
    }
    fc_status st = FC_ERR_UNSUPPORTED;
    cu_init_fn init = (cu_init_fn)dlsym(lib, "cuInit");
    cu_driver_version_fn version = (cu_driver_version_fn)dlsym(lib, "cuDriverGetVersion");
    cu_device_count_fn count = (cu_device_count_fn)dlsym(lib, "cuDeviceGetCount");
    cu_device_get_fn get = (cu_device_get_fn)dlsym(lib, "cuDeviceGet");
    cu_device_name_fn name = (cu_device_name_fn)dlsym(lib, "cuDeviceGetName");
    cu_device_attribute_fn attr = (cu_device_attribute_fn)dlsym(lib, "cuDeviceGetAttribute");
    if (!init || !version || !count || !get || !name || !attr) {
        snprintf(err, err_size, "libcuda.so.1 lacks the driver API entry points");
        goto cleanup;
    }
    int driver = 0, rc, devices = 0;
    char ebuf[32];
    if ((rc = version(&driver)) != 0) {
        snprintf(err, err_size, "cuDriverGetVersion failed: %s", error_name(lib, rc, ebuf, sizeof ebuf));
        goto cleanup;
    }
    if ((rc = init(0)) != 0) {
        snprintf(err, err_size, "the CUDA driver (CUDA %d.%d) found no usable GPU: %s", driver / 1000,
                 driver % 1000 / 10, error_name(lib, rc, ebuf, sizeof ebuf));
        goto cleanup;
    }
    if ((rc = count(&devices)) != 0 || devices <= 0) {
        snprintf(err, err_size, "the CUDA driver (CUDA %d.%d) reports no GPU", driver / 1000, driver % 1000 / 10);
        goto cleanup;
    }
    for (int i = 0; i < devices && *n < max; i++) {
        int dev = 0, major = 0, minor = 0;
        fc_target *t = &out[*n];
        memset(t, 0, sizeof *t);
        if (get(&dev, i) != 0 || attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) != 0 ||
            attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) != 0 || major < 1 || major > 99 ||
            minor < 0 || minor > 9)
            continue;
        if (name(t->name, (int)sizeof t->name, dev) != 0)
            t->name[0] = '\0';
        t->name[sizeof t->name - 1] = '\0';
        t->cc = (unsigned)(major * 10 + minor);
        t->tegra = fc_cc_is_tegra(t->cc); /* not CU_DEVICE_ATTRIBUTE_INTEGRATED: GB10 is integrated but takes desktop sm_120 code */
        t->driver_cuda = driver;
        snprintf(t->source, sizeof t->source, "GPU %d", i);
        (*n)++;
    }
    st = *n ? FC_OK : FC_ERR_UNSUPPORTED;
    if (!*n)
        snprintf(err, err_size, "no GPU answered the CUDA driver");
cleanup:
    /* libcuda is left loaded: unloading a driver library that started threads is unsafe. */
    (void)lib;
    return st;
}

/* The driver is asked in a child process: CUDA cannot be used in a process forked after
 * cuInit, and --probe forks children that must initialise it themselves. A driver that
 * crashes while listing GPUs costs the child, not fatcheck. */
fc_status fc_detect_gpus(fc_target *out, size_t max, size_t *n, char *err, size_t err_size)
{
    *n = 0;
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, err_size, "cannot ask the CUDA driver: %s", strerror(errno));
        return FC_ERR_IO;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(err, err_size, "cannot ask the CUDA driver: %s", strerror(errno));
        return FC_ERR_IO;
    }
    if (pid == 0) {
        close(fds[0]);
        detection *d = calloc(1, sizeof *d);
        if (d) {
            d->status = detect(d->targets, sizeof d->targets / sizeof *d->targets, &d->n, d->err, sizeof d->err);
            const uint8_t *p = (const uint8_t *)d;
            size_t left = sizeof *d;
            while (left) {
                ssize_t w = write(fds[1], p, left);
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0)
                    break;
                p += w;
                left -= (size_t)w;
            }
        }
        _exit(0);
    }
    close(fds[1]);
    detection *d = calloc(1, sizeof *d);
    bool got = d && fc_read_all(fds[0], d, sizeof *d);
    close(fds[0]);
    int wstatus;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    fc_status st;
    if (!got) {
        snprintf(err, err_size, "the CUDA driver failed while listing GPUs");
        st = FC_ERR_UNSUPPORTED;
    } else {
        st = (fc_status)d->status;
        for (size_t i = 0; i < d->n && i < max; i++)
            out[(*n)++] = d->targets[i];
        if (st != FC_OK)
            snprintf(err, err_size, "%s", d->err);
    }
    free(d);
    return st;
}
