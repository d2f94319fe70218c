/* arch.h - the tables of arch.c that other files read: driver releases by CUDA version, and
 * the first PTX ISA that may name each target. */
#ifndef FC_ARCH_H
#define FC_ARCH_H

#include <stdbool.h>

#include "fatcheck/scan.h"

/* The driver releases that report CUDA version CUDA_VERSION: from *LO up to (not including)
 * *HI (NULL: no newer release known). False for a version no driver reports. */
bool fc_cuda_release_range(int cuda_version, const char **lo, const char **hi);

/* The first PTX ISA (major * 10 + minor) in which PTX may name .target sm_ARCH with VARIANT
 * ("a", "f"); 0 for a target not in the table. Older PTX for it is refused by ptxas
 * ("PTX .version 7.0 does not support .target sm_90"). */
unsigned fc_ptx_target_min_isa(unsigned arch, fc_variant variant);

#endif
