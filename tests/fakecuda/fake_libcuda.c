/* fake_libcuda.c - a stand-in libcuda.so.1 for tests on machines without a GPU.
 *
 * The GPUs come from FAKE_CUDA_DEVICES (fake_spec.h), shared with the stand-in NVML. Like the
 * real driver, it applies CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER itself: devices are
 * numbered fastest first (here: higher compute capability first, then PCI bus) or, with
 * PCI_BUS_ID, by bus; a GPU in MIG mode shows as its first MIG device; a device named twice
 * by index fails cuInit with CUDA_ERROR_INVALID_DEVICE, named again otherwise ends the list
 * (as driver 580 does). Other behaviour:
 *   FAKE_CUDA_DRIVER       cuDriverGetVersion's answer (default 13000)
 *   FAKE_CUDA_INIT         cuInit's result (default 0; 100 = CUDA_ERROR_NO_DEVICE)
 *   FAKE_CUDA_HANG         when set, cuInit never returns (a wedged driver)
 *   FAKE_CUDA_STDOUT       text the library's constructor writes to file descriptor 1
 *   FAKE_CUDA_LOAD         cuModuleLoadData's result (default 0)
 *   FAKE_CUDA_CRASH_SIZE   cuModuleLoadData crashes (SIGSEGV) on an image of this many
 *                          bytes (a fat binary's header gives its size), the way the real
 *                          driver crashed on one of libnccl.so.2's containers
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_spec.h"

#define EXPORT __attribute__((visibility("default")))

__attribute__((constructor)) static void chatter(void)
{
    const char *s = getenv("FAKE_CUDA_STDOUT");
    if (s && *s)
        (void)!write(1, s, strlen(s));
}

/* A device as a CUDA program sees it. */
struct view {
    char name[96];
    int major, minor;
};

/* The devices after CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES; returns how many, or -1
 * when the variable makes cuInit fail. */
static int devices(struct view *out)
{
    struct fake_dev all[FAKE_MAX_DEVICES];
    int n = fake_devices(all, FAKE_MAX_DEVICES), order[FAKE_MAX_DEVICES];
    const char *ord = getenv("CUDA_DEVICE_ORDER");
    int pci = ord && strcmp(ord, "PCI_BUS_ID") == 0;
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0; j--) {
            struct fake_dev *a = &all[i], *b = &all[order[j - 1]];
            int ca = a->major * 10 + a->minor, cb = b->major * 10 + b->minor;
            int before = pci || ca == cb ? a->bus < b->bus : ca > cb;
            if (!before)
                break;
            order[j] = order[j - 1];
        }
        order[j] = i;
    }
    int picked[2 * FAKE_MAX_DEVICES][3], k = 0; /* device, MIG index or -1, named by index */
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (!v) {
        for (int i = 0; i < n; i++)
            picked[k][0] = order[i], picked[k][1] = -1, picked[k++][2] = 0;
    } else {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", v);
        char *save = NULL;
        for (char *e = *buf ? strtok_r(buf, ",", &save) : NULL; e; e = strtok_r(NULL, ",", &save)) {
            int dev = -1, mig = -1, index = *e >= '0' && *e <= '9' && strspn(e, "0123456789") == strlen(e);
            if (index) {
                int i = atoi(e);
                dev = i < n ? order[i] : -1;
            } else if (strncmp(e, "GPU-", 4) == 0) {
                for (int i = 0; i < n; i++)
                    if (strncmp(all[i].uuid, e, strlen(e)) == 0)
                        dev = dev == -1 ? i : -2;
            } else if (strncmp(e, "MIG-", 4) == 0) {
                for (int i = 0; i < n; i++)
                    for (int m = 0; m < all[i].n_mig; m++)
                        if (strcmp(all[i].mig_uuid[m], e) == 0)
                            dev = i, mig = m;
            }
            for (int i = 0; dev >= 0 && i < k; i++)
                if (picked[i][0] == dev && picked[i][1] == mig) {
                    if (index && picked[i][2])
                        return -1;
                    dev = -1;
                }
            if (dev < 0)
                break;
            picked[k][0] = dev, picked[k][1] = mig, picked[k++][2] = index;
        }
    }
    int count = 0;
    for (int i = 0; i < k; i++) {
        struct fake_dev *d = &all[picked[i][0]];
        int mig = picked[i][1];
        if (d->migmode && mig < 0) {
            if (!d->n_mig)
                continue;
            mig = 0;
        }
        snprintf(out[count].name, sizeof out[count].name, "%s", mig >= 0 ? d->mig_name[mig] : d->name);
        out[count].major = d->major;
        out[count].minor = d->minor;
        count++;
    }
    return count;
}

EXPORT int cuDriverGetVersion(int *v)
{
    *v = fake_env_int("FAKE_CUDA_DRIVER", 13000);
    return 0;
}

EXPORT int cuInit(unsigned flags)
{
    (void)flags;
    if (getenv("FAKE_CUDA_HANG"))
        for (;;)
            pause();
    struct view v[2 * FAKE_MAX_DEVICES];
    if (devices(v) < 0)
        return 101; /* CUDA_ERROR_INVALID_DEVICE */
    return fake_env_int("FAKE_CUDA_INIT", 0);
}

EXPORT int cuDeviceGetCount(int *count)
{
    struct view v[2 * FAKE_MAX_DEVICES];
    int n = devices(v);
    *count = n < 0 ? 0 : n;
    return 0;
}

EXPORT int cuDeviceGet(int *dev, int ordinal)
{
    *dev = ordinal;
    return 0;
}

EXPORT int cuDeviceGetName(char *out, int len, int dev)
{
    struct view v[2 * FAKE_MAX_DEVICES];
    if (dev < 0 || dev >= devices(v) || len < 1)
        return 101;
    snprintf(out, (size_t)len, "%s", v[dev].name);
    return 0;
}

EXPORT int cuDeviceGetAttribute(int *value, int attribute, int dev)
{
    struct view v[2 * FAKE_MAX_DEVICES];
    if (dev < 0 || dev >= devices(v))
        return 101;
    if (attribute == 75)
        *value = v[dev].major;
    else if (attribute == 76)
        *value = v[dev].minor;
    else
        *value = 0;
    return 0;
}

EXPORT int cuGetErrorName(int error, const char **s)
{
    *s = error == 100 ? "CUDA_ERROR_NO_DEVICE" : error == 101 ? "CUDA_ERROR_INVALID_DEVICE"
         : error == 0 ? "CUDA_SUCCESS" : "CUDA_ERROR_UNKNOWN";
    return 0;
}

EXPORT int cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    *ctx = (void *)(long)(dev + 1);
    return 0;
}

EXPORT int cuCtxSetCurrent(void *ctx)
{
    (void)ctx;
    return 0;
}

EXPORT int cuModuleLoadData(void **module, const void *image)
{
    const unsigned char *p = image;
    unsigned long long size = 0;
    if (p[0] == 0x50 && p[1] == 0xed && p[2] == 0x55 && p[3] == 0xba)
        for (int i = 0; i < 8; i++)
            size |= (unsigned long long)p[8 + i] << (8 * i);
    if (size && (long long)size + 16 == fake_env_int("FAKE_CUDA_CRASH_SIZE", -1))
        raise(SIGSEGV);
    *module = (void *)1;
    return fake_env_int("FAKE_CUDA_LOAD", 0);
}

EXPORT int cuModuleUnload(void *module)
{
    (void)module;
    return 0;
}
