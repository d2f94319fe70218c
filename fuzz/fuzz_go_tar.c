/* fuzz_go_tar.c - a layer's tar read as Go's archive/tar reads it (src/image/oci_tar_go.c):
 * the bytes after the first fed in pieces whose size the first byte says (1 to 256, or all at
 * once), every entry taken as it comes. The layer reader feeds it whatever a layer holds. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "image/oci_tar_go.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t piece = data[0] ? data[0] : size;
    data++, size--;
    if (size >= 512)
        (void)fc_go_tar_is_header(data);
    fc_go_tar *t = fc_go_tar_new();
    if (!t)
        return 0;
    size_t names = 0;
    for (size_t at = 0; at < size; at += piece) {
        size_t n = size - at < piece ? size - at : piece;
        if (!fc_go_tar_feed(t, data + at, n))
            break;
        fc_go_entry e;
        while (fc_go_tar_next(t, &e))
            names += strlen(e.name) + strlen(e.link);
    }
    (void)fc_go_tar_stopped(t);
    (void)fc_go_tar_ended(t);
    fc_go_tar_free(t);
    return names == SIZE_MAX;
}
