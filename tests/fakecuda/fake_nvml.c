/* fake_nvml.c - a stand-in libnvidia-ml.so.1 for tests on machines without a GPU.
 *
 * It lists FAKE_CUDA_DEVICES (fake_spec.h) in the order given, as NVML does, whatever
 * CUDA_VISIBLE_DEVICES says. The CUDA version comes from libcuda.so.1's cuDriverGetVersion,
 * loaded the way the real nvmlSystemGetCudaDriverVersion_v2 does: without that library it
 * answers NVML_ERROR_LIBRARY_NOT_FOUND. Other behaviour:
 *   FAKE_NVML_INIT         nvmlInit_v2's result (default 0; 9 = NVML_ERROR_DRIVER_NOT_LOADED)
 *   FAKE_NVML_HANG         when set, nvmlInit_v2 never returns
 *   FAKE_NVML_DENY         the index of a GPU whose handle is refused (NVML_ERROR_NO_PERMISSION)
 *   FAKE_NVML_STDOUT       text the library's constructor writes to file descriptor 1
 *   FAKE_NVML_STDIN        when set, the constructor reads file descriptor 0 and echoes what
 *                          it got to file descriptor 2
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_spec.h"

#define EXPORT __attribute__((visibility("default")))

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_LIBRARY_NOT_FOUND = 12,
};

typedef struct nvml_pci_info {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci_info;

/* A handle is 1 + GPU index * 16 + (MIG index + 1): never NULL, and it says what it is. */
typedef uintptr_t handle;

static struct fake_dev devs[FAKE_MAX_DEVICES];
static int n_devs, initialized;

__attribute__((constructor)) static void chatter(void)
{
    const char *s = getenv("FAKE_NVML_STDOUT");
    if (s && *s)
        (void)!write(1, s, strlen(s));
    if (getenv("FAKE_NVML_STDIN")) {
        char buf[256];
        ssize_t n = read(0, buf, sizeof buf);
        if (n > 0)
            (void)!write(2, buf, (size_t)n);
    }
}

static int decode(handle h, struct fake_dev **d, int *mig)
{
    if (!initialized)
        return NVML_ERROR_UNINITIALIZED;
    if (h < 1 || (h - 1) / 16 >= (uintptr_t)n_devs)
        return NVML_ERROR_INVALID_ARGUMENT;
    *d = &devs[(h - 1) / 16];
    *mig = (int)((h - 1) % 16) - 1;
    return NVML_SUCCESS;
}

static int copy_out(char *buf, unsigned len, const char *s)
{
    if (!buf || strlen(s) + 1 > len)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(buf, s, strlen(s) + 1);
    return NVML_SUCCESS;
}

EXPORT int nvmlInit_v2(void)
{
    if (getenv("FAKE_NVML_HANG"))
        for (;;)
            pause();
    int rc = fake_env_int("FAKE_NVML_INIT", 0);
    if (rc == NVML_SUCCESS) {
        n_devs = fake_devices(devs, FAKE_MAX_DEVICES);
        initialized = 1;
    }
    return rc;
}

EXPORT int nvmlShutdown(void)
{
    initialized = 0;
    return NVML_SUCCESS;
}

EXPORT const char *nvmlErrorString(int rc)
{
    switch (rc) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case 9: return "Driver Not Loaded";
    case NVML_ERROR_LIBRARY_NOT_FOUND: return "Shared Library Not Found";
    default: return "Unknown Error";
    }
}

EXPORT int nvmlSystemGetCudaDriverVersion_v2(int *version)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    int (*get)(int *) = cuda ? (int (*)(int *))dlsym(cuda, "cuDriverGetVersion") : NULL;
    if (!get)
        return NVML_ERROR_LIBRARY_NOT_FOUND;
    return get(version) == 0 ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

EXPORT int nvmlDeviceGetCount_v2(unsigned *count)
{
    if (!initialized)
        return NVML_ERROR_UNINITIALIZED;
    *count = (unsigned)n_devs;
    return NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned index, handle *out)
{
    if (!initialized)
        return NVML_ERROR_UNINITIALIZED;
    if (index >= (unsigned)n_devs)
        return NVML_ERROR_INVALID_ARGUMENT;
    if ((int)index == fake_env_int("FAKE_NVML_DENY", -1))
        return NVML_ERROR_NO_PERMISSION;
    *out = 1 + index * 16;
    return NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetName(handle h, char *buf, unsigned len)
{
    struct fake_dev *d;
    int mig, rc = decode(h, &d, &mig);
    return rc ? rc : copy_out(buf, len, mig >= 0 ? d->mig_name[mig] : d->name);
}

EXPORT int nvmlDeviceGetUUID(handle h, char *buf, unsigned len)
{
    struct fake_dev *d;
    int mig, rc = decode(h, &d, &mig);
    return rc ? rc : copy_out(buf, len, mig >= 0 ? d->mig_uuid[mig] : d->uuid);
}

EXPORT int nvmlDeviceGetCudaComputeCapability(handle h, int *major, int *minor)
{
    struct fake_dev *d;
    int mig, rc = decode(h, &d, &mig);
    if (rc)
        return rc;
    *major = d->major;
    *minor = d->minor;
    return NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetPciInfo_v3(handle h, nvml_pci_info *pci)
{
    struct fake_dev *d;
    int mig, rc = decode(h, &d, &mig);
    if (rc)
        return rc;
    memset(pci, 0, sizeof *pci);
    pci->bus = d->bus;
    snprintf(pci->bus_id, sizeof pci->bus_id, "00000000:%02X:00.0", d->bus & 0xff);
    return NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetMigMode(handle h, unsigned *current, unsigned *pending)
{
    struct fake_dev *d;
    int mig, rc = decode(h, &d, &mig);
    if (rc)
        return rc;
    if (d->major < 8)
        return NVML_ERROR_NOT_SUPPORTED;
    *current = *pending = (unsigned)d->migmode;
    return NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetMaxMigDeviceCount(handle h, unsigned *count)
{
    struct fake_dev *d;
    int mig, rc = decode(h, &d, &mig);
    if (rc)
        return rc;
    *count = d->migmode ? 7 : 0;
    return NVML_SUCCESS;
}

EXPORT int nvmlDeviceGetMigDeviceHandleByIndex(handle h, unsigned index, handle *out)
{
    struct fake_dev *d;
    int mig, rc = decode(h, &d, &mig);
    if (rc)
        return rc;
    if (!d->migmode)
        return NVML_ERROR_NOT_SUPPORTED;
    if (index >= (unsigned)d->n_mig)
        return NVML_ERROR_NOT_FOUND;
    *out = h + 1 + index;
    return NVML_SUCCESS;
}
