/* options.c - the scan's default options and limits, and options of another header's size. */
#include <stddef.h>
#include <string.h>

#include "decode.h"
#include "fatcheck.h"

/* The size of the first fc_options that had a size: any fc_options is at least this large. */
#define FIRST_OPTIONS_SIZE (offsetof(fc_options, on_skip_ctx) + sizeof(void *))

void fc_options_init_size(fc_options *o, size_t size)
{
    if (!o || size < sizeof o->size)
        return;
    fc_options d;
    memset(&d, 0, sizeof d);
    d.embedded = FC_EMBEDDED_AUTO;
    d.embedded_probe_size = 1u << 20; /* cuFFT's first is 6 KB in, cuSPARSE's 44 KB */
    d.recurse = true;
    d.max_decompressed_size = 1ull << 30; /* largest seen: 31.6 MB, in libcusparse.so.12 */
    d.max_containers = 1u << 20; /* cuFFT has 23,984; cuBLASLt 3,165 */
    d.max_entries = 1u << 20;    /* cuFFT has 23,984 */
    d.max_sections = 1u << 20;   /* a -fdata-sections object: tens of thousands */
    d.max_depth = 64;
    d.max_member_size = 4ull << 30; /* libtorch_cuda.so is 456 MB */
    d.max_package_depth = 4;        /* a layer in an image in a tarball */
    d.max_unpacked = 8ull << 30;    /* past 256 times the input's size only */
    d.threads = 0;
    /* An older header's fc_options gets the fields it has; a newer one's is zeroed beyond
     * this library's, and refused where it is used (fc_options_resolve). */
    memset(o, 0, size);
    memcpy(o, &d, size < sizeof d ? size : sizeof d);
    o->size = size;
}

const fc_options *fc_options_resolve(const fc_options *in, fc_options *storage)
{
    if (in && in->size == sizeof *in)
        return in;
    if (in && (in->size < FIRST_OPTIONS_SIZE || in->size > sizeof *in))
        return NULL;
    fc_options_init(storage);
    if (in) { /* an older, smaller fc_options: its fields, and the defaults of the others */
        memcpy(storage, in, in->size);
        storage->size = sizeof *storage;
    }
    return storage;
}
