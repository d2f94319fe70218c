/* test_reader.c - header reads through fc_reader: in place for memory, pread into a buffer
 * for files, the bounds it keeps, and what it says when the file is shorter than it was; and
 * the pages of a mapped image let go after reading (image.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "image.h"
#include "pread_full.h"
#include "reader.h"
#include "tap.h"

#define SIZE (300u << 10)

static unsigned char byte_at(uint64_t off)
{
    return (unsigned char)(off * 7 + off / 251);
}

int main(void)
{
    unsigned char *data = malloc(SIZE);
    for (uint64_t i = 0; i < SIZE; i++)
        data[i] = byte_at(i);
    char path[] = "/tmp/fc_reader_XXXXXX";
    int fd = mkstemp(path);
    ok(fd >= 0 && write(fd, data, SIZE) == (ssize_t)SIZE, "temporary file written");

    /* Offsets 1000..SIZE of the object lie at file position 1000 + 4096: an archive member. */
    fc_reader m, f;
    fc_reader_memory(&m, data + 4096, 1000, SIZE - 4096 + 1000);
    ok(fc_reader_file(&f, fd, 4096, 1000, SIZE - 4096 + 1000, 0), "file reader made");
    is_u64(f.cap, FC_READER_MIN_CAP, "a capacity below the minimum is raised to it");
    size_t got;
    const uint8_t *p = fc_reader_get(&m, 1000, 16, &got);
    ok(p && p[0] == byte_at(4096), "memory: offset lo is the first byte");
    is_u64(got, SIZE - 4096, "memory: everything up to hi follows");
    p = fc_reader_get(&f, 1000, 16, &got);
    ok(p && p[0] == byte_at(4096) && got == FC_READER_SMALL_READ, "file: a small read, from the right position");
    p = fc_reader_get(&f, 1500, 16, &got);
    ok(p && p[0] == byte_at(4096 + 500) && got == FC_READER_SMALL_READ - 500, "file: held bytes served without a read");
    p = fc_reader_get(&f, 5000, 1 << 20, &got);
    ok(p && got == FC_READER_MIN_CAP, "file: a request above the capacity is cut to it");
    int same = 1;
    for (size_t i = 0; p && i < got; i++)
        same &= p[i] == byte_at(4096 + 4000 + i);
    ok(same, "file: the bytes are the file's");
    fc_reader_read_size(&f, 1u << 30);
    is_u64(f.read_size, f.cap, "read size clipped to the capacity");
    fc_reader_read_size(&f, 1);
    is_u64(f.read_size, FC_READER_SMALL_READ, "read size at least the small read");
    uint64_t hi = SIZE - 4096 + 1000;
    p = fc_reader_get(&f, hi - 10, 64, &got);
    ok(p && got == 10, "file: reads stop at hi");
    ok(!fc_reader_get(&f, hi, 1, &got) && got == 0, "file: hi itself cannot be read");
    ok(!fc_reader_get(&f, 999, 1, &got) && got == 0, "file: below lo cannot be read");
    ok(!fc_reader_get(&m, hi, 1, &got) && got == 0, "memory: hi itself cannot be read");

    /* The file cut short after the reader was made: fewer bytes, and no errno. */
    /* The whole positioned read the reader and others use (pread_full.c). */
    unsigned char buf[64];
    int err = -1;
    ok(fc_pread_full(fd, buf, sizeof buf, 100, &err) == sizeof buf && err == 0 && buf[0] == byte_at(100) &&
           buf[63] == byte_at(163),
       "pread_full: all it asked for, from its offset");
    ok(fc_pread_full(fd, buf, sizeof buf, SIZE - 10, &err) == 10 && err == 0, "pread_full: up to the end, no error");
    ok(fc_pread_full(-1, buf, sizeof buf, 0, &err) == 0 && err == EBADF, "pread_full: a failed read gives its errno");

    ok(ftruncate(fd, 8192) == 0, "file truncated");
    p = fc_reader_get(&f, 200000, 64, &got);
    ok(!p && got == 0 && f.error == 0, "file: past its new end, nothing, and no error");
    p = fc_reader_get(&f, 8192 - 4096 + 1000 - 8, 64, &got);
    ok(p && got == 8 && f.error == 0, "file: up to its new end, what is there");
    fc_reader_free(&f);

    /* A descriptor that cannot be read from: the error is kept. */
    ok(fc_reader_file(&f, -1, 0, 0, 100, 0), "reader of a bad descriptor made");
    ok(!fc_reader_get(&f, 0, 8, &got) && f.error != 0, "bad descriptor: the read fails with an errno");
    fc_reader_free(&f);

    /* fc_image_release drops the whole pages of a range by address, also for an image that
     * starts inside a page (an archive member: 1000 bytes into the mapping). A dropped page of
     * a private mapping reads the file again, so a byte written into it is gone: it was kept
     * when the member's offsets were rounded instead (madvise refused the unaligned address). */
    long page = sysconf(_SC_PAGESIZE);
    ok(ftruncate(fd, 0) == 0 && pwrite(fd, data, SIZE, 0) == (ssize_t)SIZE, "the file is whole again");
    unsigned char *map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    ok(map != MAP_FAILED, "the file is mapped");
    if (map != MAP_FAILED) {
        fc_image member = {map + 1000, SIZE - 1000, fd, true};
        map[2 * page] ^= 0xff;     /* in page 2, which the range below holds whole */
        map[page - 1] ^= 0xff;     /* in page 0, which the range only ends in */
        fc_image_release(&member, (uint64_t)page - 1000 - 1, 3 * (uint64_t)page);
        ok(map[2 * page] == byte_at(2 * (uint64_t)page), "a whole page of the range is dropped");
        ok(map[page - 1] != byte_at((uint64_t)page - 1), "a page the range holds only in part is kept");
        fc_image not_ours = {map + 1000, SIZE - 1000, fd, false};
        map[2 * page] = (unsigned char)~byte_at(2 * (uint64_t)page);
        fc_image_release(&not_ours, 0, SIZE - 1000);
        ok(map[2 * page] != byte_at(2 * (uint64_t)page), "nothing is dropped from a mapping not its own");
        munmap(map, SIZE);
    }
    close(fd);
    unlink(path);
    free(data);
    return tap_done();
}
