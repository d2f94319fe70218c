/* fake_libcuda.c - a stand-in libcuda.so.1 for tests on machines without a GPU.
 *
 * Behaviour comes from the environment:
 *   FAKE_CUDA_DRIVER       cuDriverGetVersion's answer (default 13000)
 *   FAKE_CUDA_INIT         cuInit's result (default 0; 100 = CUDA_ERROR_NO_DEVICE)
 *   FAKE_CUDA_DEVICES      "NAME:MAJOR.MINOR;NAME:MAJOR.MINOR..." (default: none)
 *   FAKE_CUDA_LOAD         cuModuleLoadData's result (default 0)
 *   FAKE_CUDA_CRASH_SIZE   cuModuleLoadData crashes (SIGSEGV) on an image of this many
 *                          bytes (a fat binary's header gives its size), the way the real
 *                          driver crashed on one of libnccl.so.2's containers
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

/* The Nth "NAME:X.Y" of FAKE_CUDA_DEVICES; false when there is none. */
static int device_spec(int n, char *name, size_t size, int *major, int *minor)
{
    const char *s = getenv("FAKE_CUDA_DEVICES");
    if (!s || !*s)
        return 0;
    for (int i = 0; i < n; i++) {
        s = strchr(s, ';');
        if (!s)
            return 0;
        s++;
    }
    const char *colon = strchr(s, ':');
    if (!colon)
        return 0;
    size_t len = (size_t)(colon - s) < size - 1 ? (size_t)(colon - s) : size - 1;
    memcpy(name, s, len);
    name[len] = '\0';
    return sscanf(colon + 1, "%d.%d", major, minor) == 2;
}

EXPORT int cuDriverGetVersion(int *v)
{
    *v = env_int("FAKE_CUDA_DRIVER", 13000);
    return 0;
}

EXPORT int cuInit(unsigned flags)
{
    (void)flags;
    return env_int("FAKE_CUDA_INIT", 0);
}

EXPORT int cuDeviceGetCount(int *count)
{
    char name[128];
    int major, minor, n = 0;
    while (device_spec(n, name, sizeof name, &major, &minor))
        n++;
    *count = n;
    return 0;
}

EXPORT int cuDeviceGet(int *dev, int ordinal)
{
    *dev = ordinal;
    return 0;
}

EXPORT int cuDeviceGetName(char *out, int len, int dev)
{
    int major, minor;
    return device_spec(dev, out, (size_t)len, &major, &minor) ? 0 : 101;
}

EXPORT int cuDeviceGetAttribute(int *value, int attribute, int dev)
{
    char name[128];
    int major, minor;
    if (!device_spec(dev, name, sizeof name, &major, &minor))
        return 101;
    if (attribute == 75)
        *value = major;
    else if (attribute == 76)
        *value = minor;
    else
        *value = 0;
    return 0;
}

EXPORT int cuGetErrorName(int error, const char **s)
{
    *s = error == 100 ? "CUDA_ERROR_NO_DEVICE" : error == 0 ? "CUDA_SUCCESS" : "CUDA_ERROR_UNKNOWN";
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
    if (size && (long long)size + 16 == env_int("FAKE_CUDA_CRASH_SIZE", -1))
        raise(SIGSEGV);
    *module = (void *)1;
    return env_int("FAKE_CUDA_LOAD", 0);
}

EXPORT int cuModuleUnload(void *module)
{
    (void)module;
    return 0;
}
