/* options.c - the scan's default options and limits. */
#include <string.h>

#include "internal.h"

void fc_options_init(fc_options *o)
{
    memset(o, 0, sizeof *o);
    o->embedded = FC_EMBEDDED_AUTO;
    o->embedded_probe_size = 1u << 20; /* cuFFT's first is 6 KB in, cuSPARSE's 44 KB */
    o->recurse = true;
    o->max_decompressed_size = 1ull << 30; /* largest seen: 31.6 MB, in libcusparse.so.12 */
    o->max_containers = 1u << 20; /* cuFFT has 23,984; cuBLASLt 3,165 */
    o->max_entries = 1u << 20;    /* cuFFT has 23,984 */
    o->max_sections = 1u << 20;   /* a -fdata-sections object: tens of thousands */
    o->max_depth = 64;
    o->max_member_size = 4ull << 30; /* libtorch_cuda.so is 456 MB */
    o->max_package_depth = 4;        /* a layer in an image in a tarball */
    o->threads = 0;
}
