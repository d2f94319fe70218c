/* fatcheck/runtime.h - the CUDA runtime a file needs, and so the driver it needs. */
#ifndef FATCHECK_RUNTIME_H
#define FATCHECK_RUNTIME_H

#include "scan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A CUDA runtime newer than the driver allows cannot start: every CUDA call fails with
 * cudaErrorInsufficientDriver ("CUDA driver version is insufficient for CUDA runtime version"),
 * whatever images the file holds. From CUDA 11 on, a runtime of major N starts on any driver for
 * N.0 or newer (minor version compatibility); earlier ones only on their own release's. */
typedef enum fc_runtime_kind {
    FC_RUNTIME_NONE = 0, /* names no CUDA runtime and registers no code through one */
    FC_RUNTIME_SHARED,   /* libcudart.so.N in DT_NEEDED (nvcc -cudart shared) */
    FC_RUNTIME_STATIC,   /* linked in (nvcc's default): registered code, no libcudart named */
    FC_RUNTIME_PROCESS,  /* registers its code through a runtime the loading process brings */
    FC_RUNTIME_UNKNOWN,  /* registers code through a runtime it does not name, and what is left
                            of the file does not tell whether it is linked in */
} fc_runtime_kind;

typedef struct fc_runtime_need {
    fc_runtime_kind kind;
    int cuda;                   /* the oldest CUDA version whose driver starts its runtime and
                                   the CUDA libraries it names (13000); 0 when nothing tells */
    char decided_by[64];        /* what sets CUDA: "libcudart.so.13", "its static CUDA 12 runtime" */
    int built_by;               /* static runtime: the toolkit of its device code (12040), or 0 */
    int library_cuda;           /* it is a CUDA library itself (its soname): that CUDA, or 0 */
    char built_by_evidence[64]; /* "PTX ISA 8.4", "its cubins' ptxas, CUDA 13.0" */
    bool floor_only;            /* static runtime dated by its device code alone (PTX ISA, cubin
                                   notes): the runtime is at least CUDA, maybe newer, so a driver
                                   below it fails and one at or above it is not judged */
} fc_runtime_need;

/* What OBJ needs of the driver (call from the scan callback: for a static runtime, a cubin
 * may be read for its toolkit note, within opts->max_decompressed_size; OPTS may be NULL).
 * FC_ERR_INVALID for a NULL OBJ or OUT, or OPTS not filled by fc_options_init; else FC_OK (an
 * image that cannot be read leaves its evidence out). */
FC_API fc_status fc_object_runtime(fc_runtime_need *out, const fc_object *obj, const fc_options *opts);
/* Whether a driver for CUDA version DRIVER_CUDA starts it (true when either is unknown, 0, and
 * when N->floor_only and the driver is at or above it: that is not judged). */
FC_API bool fc_runtime_starts(const fc_runtime_need *n, int driver_cuda);
/* The CUDA version a CUDA library's soname calls for: libcudart.so.13 -> 13000,
 * libcudart.so.10.2 -> 10020, libcufft.so.11 -> 12000 (cuFFT 11 came with CUDA 12); 0 for
 * a name it does not know. */
FC_API int fc_cuda_library_version(const char *soname);
/* Windows DLL names are read as their sonames: cudart64_12.dll as libcudart.so.12,
 * cudart64_110.dll as libcudart.so.11.0, cufft64_11.dll as libcufft.so.11. */
/* Whether NAME (a soname or DLL name) is a CUDA runtime fc_cuda_library_version knows. */
FC_API bool fc_is_cuda_runtime_library(const char *name);
FC_API const char *fc_runtime_kind_name(fc_runtime_kind k); /* "shared", "static", "process", "unknown", "none" */

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_RUNTIME_H */
