/* runtime_names.c - dating a static CUDA runtime by the driver functions it names. */
#include <string.h>

#include "runtime_names.h"

/* Driver functions that a static CUDA runtime resolves by name (cuGetProcAddress; dlsym before
 * CUDA 11.3), keeping the names in .rodata (.rdata on Windows), and the CUDA release that
 * introduced each (cudaTypedefs.h of CUDA 13.0: PFN_cuMemGetDefaultMemPool_v13000,
 * PFN_cuLibraryLoadData_v12000, PFN_cuCtxResetPersistingL2Cache_v11000). Checked on real static
 * builds: CUDA 11.8's cuBLAS, cuBLASLt and cuSPARSE name only the 11.0 ones, 12.3's cuSPARSE
 * and 12.4's cuBLAS and cuRAND the 12.0 ones too, CUDA 13.0's libraries and nvcc 13.0 programs
 * all of them; files linking libcudart.so name none. On Windows (review of 2026-12-08, 176
 * nvcc-built images of CUDA 6.0 to 13.2): all 57 CUDA 11 tables name the 11.0 one and none of
 * 12.0's, all 34 CUDA 12 tables the 12.0 ones and none of 13.0's, the 8 CUDA 13 ones all
 * three of 13.0's. Newest first. */
static const struct {
    const char *name;
    int cuda;
} runtime_calls[] = {
    {"cuMemGetDefaultMemPool", 13000}, {"cuDeviceGetHostAtomicCapabilities", 13000},
    {"cuMemPrefetchBatchAsync", 13000}, {"cuLibraryLoadData", 12000}, {"cuKernelGetFunction", 12000},
    {"cuGraphInstantiateWithParams", 12000}, {"cuCtxResetPersistingL2Cache", 11000},
};

size_t fc_whole_string(char out[64], const char *name)
{
    size_t len = strlen(name) + 2;
    out[0] = '\0';
    memcpy(out + 1, name, len - 2);
    out[len - 1] = '\0';
    return len;
}

bool fc_holds_whole_string(const uint8_t *p, size_t n, const char *name)
{
    char pattern[64];
    size_t len = fc_whole_string(pattern, name);
    return memmem(p, n, pattern, len) != NULL;
}

int fc_runtime_names_newest(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < sizeof runtime_calls / sizeof *runtime_calls; i++)
        if (fc_holds_whole_string(p, n, runtime_calls[i].name))
            return runtime_calls[i].cuda;
    return 0;
}

const char *fc_runtime_names_oldest(void)
{
    return runtime_calls[sizeof runtime_calls / sizeof *runtime_calls - 1].name;
}
