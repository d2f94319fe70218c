/* fatcheck/require.h - what a container image asks of the NVIDIA Container Toolkit before
 * its container starts (NVIDIA_REQUIRE_*). */
#ifndef FATCHECK_REQUIRE_H
#define FATCHECK_REQUIRE_H

#include "match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Its NVIDIA_REQUIRE_* values, evaluated as nvidia-container-cli evaluates them for each GPU
 * given to the container: terms separated by spaces are ORed, factors separated by commas
 * ANDed, each PROPERTY OP VALUE (cuda, driver, arch: dotted numbers; brand: a word) with OP
 * one of = != < <= > >=; the first value that fails stops the container from starting. */
typedef enum fc_require_result {
    FC_REQUIRE_MET = 0,  /* the container starts */
    FC_REQUIRE_UNMET,    /* refused: "unsatisfied condition: cuda>=12.4, ..." */
    FC_REQUIRE_UNKNOWN,  /* depends on what is not known (the GPU's brand, the driver release) */
    FC_REQUIRE_INVALID,  /* refused: an expression the toolkit does not understand is reached,
                            a capability it does not support, a CUDA_VERSION it cannot read */
    FC_REQUIRE_NO_DRIVER, /* it starts without libcuda.so.1: its capabilities lack compute */
} fc_require_result;

/* What is known of one GPU and its driver; 0 or NULL where unknown. */
typedef struct fc_require_props {
    int cuda;            /* the driver's CUDA version: 12040 */
    const char *driver;  /* the driver release: "550.54.14" */
    unsigned cc;         /* compute capability: 90 */
    const char *brand;   /* "Tesla", "NVIDIA", "GeForce" (NVML's names) */
} fc_require_props;

/* Evaluates the N values REQS for a GPU with properties P. WHY gets the toolkit's message when
 * unmet, the expression when invalid, what is missing when unknown. */
FC_API fc_require_result fc_require_eval(const char *const *reqs, size_t n, const fc_require_props *p, char *why,
                                         size_t why_size);
/* The same for image IMG's requirements on target T (its compute capability, driver_cuda and
 * driver release; the brand is never known). FC_REQUIRE_MET when it has none. */
FC_API fc_require_result fc_oci_requirements_check(const fc_oci_image *img, const fc_target *t, char *why,
                                                   size_t why_size);
/* Whether image IMG's forward-compatibility libcuda (cuda-compat) could start a runtime that
 * needs CUDA NEED on target T, whose driver is too old for it: NVIDIA's CUDA Compatibility
 * guide gives it to data-center GPUs (and select NGC-ready RTX ones) on the driver branches
 * each package lists, which are not known here. True, with WHY saying so, when it could. */
FC_API bool fc_oci_compat_could_start(const fc_oci_image *img, int need, const fc_target *t, char *why,
                                      size_t why_size);
FC_API const char *fc_require_result_name(fc_require_result r); /* "met", "unmet", "unknown", "invalid",
                                                                  "no-driver" */

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_REQUIRE_H */
