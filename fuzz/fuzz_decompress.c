/* fuzz_decompress.c - zstd and LZ4 streams under a small limit. The first byte picks the
 * method and the declared size; the rest is the stream. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fatcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    fc_compression m = data[0] & 1 ? FC_COMPRESSION_ZSTD : FC_COMPRESSION_LZ4;
    uint64_t declared = (uint64_t)(data[0] >> 1) << 10;
    void *out = NULL;
    size_t n = 0;
    fc_decompress(&out, &n, m, data + 1, size - 1, declared, 1u << 20);
    free(out);
    return 0;
}
