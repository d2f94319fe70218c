/* image.c - an input's bytes: readers over them, and dropping pages read. */
#include <sys/mman.h>
#include <unistd.h>

#include "image.h"
#include "pread_full.h"
#include "reader.h"

void fc_image_release(const fc_image *img, uint64_t off, uint64_t len)
{
    if (!img || !img->own_mapping || off >= img->size)
        return;
    if (len > img->size - off)
        len = img->size - off;
    /* Whole pages only, by address: an archive member's image starts inside the archive's
     * mapping, anywhere in a page (rounding its offsets instead gave madvise unaligned
     * addresses, which it refuses: the kernel view of a member kept every page it read). */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), at = (uintptr_t)img->data + (uintptr_t)off;
    uintptr_t start = (at + page - 1) & ~(page - 1), end = (at + (uintptr_t)len) & ~(page - 1);
    /* The mapping is private and never written, so dropping its pages loses nothing. */
    if (end > start)
        madvise((void *)start, end - start, MADV_DONTNEED);
}

bool fc_image_reader(const fc_image *img, uint64_t base, uint64_t lo, uint64_t hi, size_t cap, fc_reader *r)
{
    if (img->fd < 0 || !img->own_mapping) {
        fc_reader_memory(r, img->data + base + lo, lo, hi);
        return true;
    }
    return fc_reader_file(r, img->fd, base + lo, lo, hi, cap);
}

const uint8_t *fc_image_bytes(const fc_image *img, uint64_t pos, size_t n, uint8_t *buf, size_t *got)
{
    if (img->fd < 0 || !img->own_mapping) {
        *got = pos < img->size ? (img->size - pos < n ? (size_t)(img->size - pos) : n) : 0;
        return img->data + pos;
    }
    *got = fc_pread_full(img->fd, buf, n, pos, NULL);
    return buf;
}
