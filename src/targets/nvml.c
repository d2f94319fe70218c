/* nvml.c - the GPUs as NVML (libnvidia-ml.so.1, loaded at run time) lists them: compute
 * capability, name, UUID, PCI location, MIG mode and MIG devices, and the CUDA version the
 * driver supports. NVML answers these in milliseconds, where the Driver API's cuInit takes a
 * fifth of a second on an H200 (docs/performance.md). It does not apply CUDA_VISIBLE_DEVICES:
 * visible_devices.c does. Called in the detecting child only (gpu.c). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "detect.h"

/* The entry points used, with their signatures and values from NVIDIA's nvml.h. */
typedef struct nvmlDevice_st *nvml_device;
typedef struct nvml_pci_info {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci_info;

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_LIBRARY_NOT_FOUND = 12,
    NVML_DEVICE_MIG_ENABLE = 1,
};

typedef int (*nvml_void_fn)(void);
typedef int (*nvml_count_fn)(unsigned *);
typedef int (*nvml_handle_fn)(unsigned, nvml_device *);
typedef int (*nvml_string_fn)(nvml_device, char *, unsigned);
typedef int (*nvml_cc_fn)(nvml_device, int *, int *);
typedef int (*nvml_pci_fn)(nvml_device, nvml_pci_info *);
typedef int (*nvml_mig_mode_fn)(nvml_device, unsigned *, unsigned *);
typedef int (*nvml_mig_count_fn)(nvml_device, unsigned *);
typedef int (*nvml_mig_handle_fn)(nvml_device, unsigned, nvml_device *);
typedef int (*nvml_version_fn)(int *);
typedef const char *(*nvml_error_fn)(int);

typedef struct nvml_api {
    nvml_void_fn init;
    nvml_count_fn count;
    nvml_handle_fn handle;
    nvml_string_fn name, uuid;
    nvml_cc_fn cc;
    nvml_pci_fn pci;
    nvml_mig_mode_fn mig_mode;
    nvml_mig_count_fn mig_count;
    nvml_mig_handle_fn mig_handle;
    nvml_version_fn cuda_version;
    nvml_error_fn error_string;
} nvml_api;

static const char *nvml_error(const nvml_api *api, int rc, char *buf, size_t size)
{
    const char *s = api->error_string ? api->error_string(rc) : NULL;
    if (s && *s)
        snprintf(buf, size, "%s", s);
    else
        snprintf(buf, size, "NVML error %d", rc);
    return buf;
}

/* A string NVML wrote into a buffer of SIZE: a broken library is not trusted to terminate
 * it. (Its bytes are escaped where they are printed.) */
static void terminate(char *s, size_t size)
{
    s[size - 1] = '\0';
}

/* The MIG devices of GPU G (its MIG mode is on). False when NVML fails on one. */
static bool list_mig(const nvml_api *api, nvml_device dev, fc_gpu *g, char *err, size_t err_size)
{
    unsigned max = 0;
    char ebuf[64];
    int rc = api->mig_count(dev, &max);
    if (rc != NVML_SUCCESS) {
        snprintf(err, err_size, "NVML could not count the MIG devices of %s: %s", g->uuid,
                 nvml_error(api, rc, ebuf, sizeof ebuf));
        return false;
    }
    for (unsigned i = 0; i < max; i++) {
        nvml_device m;
        rc = api->mig_handle(dev, i, &m);
        if (rc == NVML_ERROR_NOT_FOUND)
            continue; /* no compute instance at this index */
        if (rc != NVML_SUCCESS || g->n_mig == FC_MAX_MIG) {
            snprintf(err, err_size, "NVML could not list the MIG devices of %s: %s", g->uuid,
                     rc != NVML_SUCCESS ? nvml_error(api, rc, ebuf, sizeof ebuf) : "too many");
            return false;
        }
        fc_mig_device *md = &g->mig[g->n_mig];
        memset(md, 0, sizeof *md);
        if ((rc = api->uuid(m, md->uuid, sizeof md->uuid)) != NVML_SUCCESS) {
            snprintf(err, err_size, "NVML could not read a MIG device's UUID on %s: %s", g->uuid,
                     nvml_error(api, rc, ebuf, sizeof ebuf));
            return false;
        }
        terminate(md->uuid, sizeof md->uuid);
        if (api->name(m, md->name, sizeof md->name) != NVML_SUCCESS)
            md->name[0] = '\0';
        terminate(md->name, sizeof md->name);
        g->n_mig++;
    }
    return true;
}

/* One GPU's description, on a thread of its own; ERR stays "" on success. */
typedef struct describe_job {
    const nvml_api *api;
    unsigned index;
    fc_gpu *gpu;
    char err[320];
} describe_job;

static void describe(describe_job *job)
{
    const nvml_api *api = job->api;
    unsigned i = job->index;
    fc_gpu *g = job->gpu;
    memset(g, 0, sizeof *g);
    nvml_device dev;
    int major = 0, minor = 0, rc;
    nvml_pci_info pci;
    memset(&pci, 0, sizeof pci);
    char ebuf[64];
    /* Any GPU NVML cannot describe (no permission, lost, too old for the calls) leaves the
     * answer to the driver: guessing which GPUs CUDA would see is not an answer. */
    if ((rc = api->handle(i, &dev)) != NVML_SUCCESS || (rc = api->uuid(dev, g->uuid, sizeof g->uuid)) != NVML_SUCCESS ||
        (rc = api->cc(dev, &major, &minor)) != NVML_SUCCESS || (rc = api->pci(dev, &pci)) != NVML_SUCCESS) {
        snprintf(job->err, sizeof job->err, "NVML could not describe GPU %u: %s", i, nvml_error(api, rc, ebuf, sizeof ebuf));
        return;
    }
    if (major < 1 || major > 99 || minor < 0 || minor > 9) {
        snprintf(job->err, sizeof job->err, "NVML gives GPU %u an unknown compute capability %d.%d", i, major, minor);
        return;
    }
    terminate(g->uuid, sizeof g->uuid);
    if (api->name(dev, g->name, sizeof g->name) != NVML_SUCCESS)
        g->name[0] = '\0';
    terminate(g->name, sizeof g->name);
    g->cc = (unsigned)(major * 10 + minor);
    g->domain = pci.domain;
    g->bus = pci.bus;
    g->device = pci.device;
    /* MIG: GPUs before Ampere, and drivers without MIG, answer "not supported". */
    unsigned current = 0, pending = 0;
    rc = api->mig_mode ? api->mig_mode(dev, &current, &pending) : NVML_ERROR_NOT_SUPPORTED;
    if (rc != NVML_SUCCESS && rc != NVML_ERROR_NOT_SUPPORTED) {
        snprintf(job->err, sizeof job->err, "NVML could not read the MIG mode of GPU %u: %s", i,
                 nvml_error(api, rc, ebuf, sizeof ebuf));
        return;
    }
    g->mig_enabled = rc == NVML_SUCCESS && current == NVML_DEVICE_MIG_ENABLE;
    if (g->mig_enabled && (!api->mig_count || !api->mig_handle))
        snprintf(job->err, sizeof job->err, "GPU %u is in MIG mode and NVML cannot list its MIG devices", i);
    else if (g->mig_enabled)
        (void)list_mig(api, dev, g, job->err, sizeof job->err);
}

static void *describe_thread(void *job)
{
    describe(job);
    return NULL;
}

fc_status fc_nvml_list(fc_gpu_list *out, bool *no_cuda, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    *no_cuda = false;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, err_size, "no NVML (libnvidia-ml.so.1 could not be loaded)");
        return FC_ERR_UNSUPPORTED;
    }
    nvml_api api = {
        .init = (nvml_void_fn)dlsym(lib, "nvmlInit_v2"),
        .count = (nvml_count_fn)dlsym(lib, "nvmlDeviceGetCount_v2"),
        .handle = (nvml_handle_fn)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"),
        .name = (nvml_string_fn)dlsym(lib, "nvmlDeviceGetName"),
        .uuid = (nvml_string_fn)dlsym(lib, "nvmlDeviceGetUUID"),
        .cc = (nvml_cc_fn)dlsym(lib, "nvmlDeviceGetCudaComputeCapability"),
        .pci = (nvml_pci_fn)dlsym(lib, "nvmlDeviceGetPciInfo_v3"),
        .mig_mode = (nvml_mig_mode_fn)dlsym(lib, "nvmlDeviceGetMigMode"),
        .mig_count = (nvml_mig_count_fn)dlsym(lib, "nvmlDeviceGetMaxMigDeviceCount"),
        .mig_handle = (nvml_mig_handle_fn)dlsym(lib, "nvmlDeviceGetMigDeviceHandleByIndex"),
        .cuda_version = (nvml_version_fn)dlsym(lib, "nvmlSystemGetCudaDriverVersion_v2"),
        .error_string = (nvml_error_fn)dlsym(lib, "nvmlErrorString"),
    };
    /* The library is left loaded: the child that called this exits soon after. */
    if (!api.init || !api.count || !api.handle || !api.name || !api.uuid || !api.cc || !api.pci ||
        !api.cuda_version) {
        snprintf(err, err_size, "libnvidia-ml.so.1 lacks entry points fatcheck uses (a driver older than R450?)");
        return FC_ERR_UNSUPPORTED;
    }
    char ebuf[64];
    int rc = api.init();
    if (rc != NVML_SUCCESS) {
        snprintf(err, err_size, "nvmlInit failed: %s", nvml_error(&api, rc, ebuf, sizeof ebuf));
        return FC_ERR_UNSUPPORTED;
    }
    /* The CUDA version comes from libcuda.so.1's cuDriverGetVersion: without that library no
     * CUDA program here can use a GPU, whatever NVML sees. */
    rc = api.cuda_version(&out->driver_cuda);
    if (rc == NVML_ERROR_LIBRARY_NOT_FOUND) {
        *no_cuda = true;
        snprintf(err, err_size, "NVML sees the driver, but libcuda.so.1 could not be loaded, so no CUDA "
                 "program here can use a GPU (in a container: NVIDIA_DRIVER_CAPABILITIES lacks \"compute\")");
        return FC_ERR_UNSUPPORTED;
    }
    if (rc != NVML_SUCCESS || out->driver_cuda < 1000) {
        snprintf(err, err_size, "NVML could not read the CUDA driver version: %s",
                 rc != NVML_SUCCESS ? nvml_error(&api, rc, ebuf, sizeof ebuf) : "out of range");
        return FC_ERR_UNSUPPORTED;
    }
    unsigned count = 0;
    if ((rc = api.count(&count)) != NVML_SUCCESS) {
        snprintf(err, err_size, "NVML could not count the GPUs: %s", nvml_error(&api, rc, ebuf, sizeof ebuf));
        return FC_ERR_UNSUPPORTED;
    }
    if (count > FC_MAX_GPUS) {
        snprintf(err, err_size, "NVML lists %u GPUs, more than fatcheck reads (%d)", count, FC_MAX_GPUS);
        return FC_ERR_UNSUPPORTED;
    }
    /* Each GPU's first handle initialises it (6.7 ms an H200, driver 580): on threads of
     * their own the GPUs initialise together (two H200s: 8.9 ms instead of 14.2). */
    describe_job jobs[FC_MAX_GPUS];
    pthread_t threads[FC_MAX_GPUS];
    bool started[FC_MAX_GPUS];
    for (unsigned i = 0; i < count; i++) {
        jobs[i] = (describe_job){.api = &api, .index = i, .gpu = &out->gpus[i]};
        started[i] = count > 1 && pthread_create(&threads[i], NULL, describe_thread, &jobs[i]) == 0;
        if (!started[i])
            describe(&jobs[i]);
    }
    for (unsigned i = 0; i < count; i++)
        if (started[i])
            pthread_join(threads[i], NULL);
    for (unsigned i = 0; i < count; i++)
        if (jobs[i].err[0]) {
            snprintf(err, err_size, "%s", jobs[i].err);
            return FC_ERR_UNSUPPORTED;
        }
    out->n = count;
    return FC_OK;
}
