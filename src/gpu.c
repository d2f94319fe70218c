/* gpu.c - the local GPUs and driver, through the CUDA Driver API loaded at run time.
 * fatcheck has no build-time CUDA dependency: without libcuda.so.1, or without a GPU, the
 * answer is a message, not a failure of the program. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

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

fc_status fc_detect_gpus(fc_target *out, size_t max, size_t *n, char *err, size_t err_size)
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
