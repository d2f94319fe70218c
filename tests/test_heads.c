/* test_heads.c - many files' heads at once through io_uring (src/input/heads.c): what each
 * file gives (its first 4 KiB, a short file whole, an empty one, a FIFO without a writer),
 * the error of each that cannot be opened, and a batch after a failed one. Skipped, saying
 * so, where io_uring cannot be used (built without liburing, or refused by the kernel). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heads.h"
#include "tap.h"

static void write_file(int dir, const char *name, size_t size, int mode)
{
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC, mode);
    for (size_t i = 0; fd >= 0 && i < size; i++) {
        char c = (char)('a' + i % 26);
        if (write(fd, &c, 1) != 1)
            break;
    }
    if (fd >= 0)
        close(fd);
}

int main(void)
{
    fc_heads *h = fc_heads_new();
    if (!h) {
        printf("1..0 # SKIP io_uring cannot be used here (built without liburing, or refused)\n");
        return 0;
    }
    char tmp[] = "/tmp/fc-heads-XXXXXX";
    if (!mkdtemp(tmp))
        return 1;
    int dir = open(tmp, O_RDONLY | O_DIRECTORY);
    write_file(dir, "big", 10000, 0644);
    write_file(dir, "short", 10, 0644);
    write_file(dir, "empty", 0, 0644);
    write_file(dir, "locked", 100, 0);
    mkfifoat(dir, "fifo", 0644);
    mkdirat(dir, "sub", 0755);
    const char *names[] = {"big", "short", "empty", "missing", "fifo", "locked", "sub"};
    uint8_t (*bufs)[FC_HEAD_SIZE] = malloc(FC_HEADS_BATCH * sizeof *bufs);
    ssize_t got[FC_HEADS_BATCH];
    ok(fc_heads_read(h, dir, names, 7, bufs, got), "a batch of seven is read");
    ok(got[0] == FC_HEAD_SIZE && memcmp(bufs[0], "abcdefghij", 10) == 0, "a big file: its first 4 KiB (%zd)", got[0]);
    ok(got[1] == 10 && memcmp(bufs[1], "abcdefghij", 10) == 0, "a short file: whole (%zd)", got[1]);
    ok(got[2] == 0, "an empty file: nothing (%zd)", got[2]);
    ok(got[3] == -ENOENT, "a name that is not there: ENOENT (%zd)", got[3]);
    ok(got[4] == 0 || got[4] == -EAGAIN, "a FIFO without a writer: opened without blocking, nothing read (%zd)", got[4]);
    if (geteuid() == 0)
        ok(got[5] == 100, "a file without permissions, as root: read (%zd)", got[5]);
    else
        ok(got[5] == -EACCES, "a file without permissions: EACCES (%zd)", got[5]);
    ok(got[6] == -EISDIR, "a folder: opened, its read fails with EISDIR (%zd)", got[6]);
    /* A FIFO with a writer, put where a listed file was (review 5): io_uring polls an
     * O_NONBLOCK pipe, so its read would wait for ever. It is given up, the others read; the
     * alarm ends the test, failed, if the batch never comes back. */
    int writer = openat(dir, "fifo", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    const char *with_writer[] = {"short", "fifo", "big"};
    alarm(30);
    bool back = fc_heads_read(h, dir, with_writer, 3, bufs, got);
    alarm(0);
    ok(writer >= 0 && back && got[0] == 10 && got[1] < 0 && got[2] == FC_HEAD_SIZE,
       "a FIFO with a writer: its read given up (%zd), the other files read", got[1]);
    if (writer >= 0)
        close(writer);
    /* Every slot of the ring's table used, again and again: each file's is freed, also after
     * a read that failed. */
    const char *many[FC_HEADS_BATCH];
    for (size_t i = 0; i < FC_HEADS_BATCH; i++)
        many[i] = i % 3 == 0 ? "short" : i % 3 == 1 ? "missing" : "sub";
    bool all = true;
    for (int round = 0; round < 4; round++) {
        all &= fc_heads_read(h, dir, many, FC_HEADS_BATCH, bufs, got);
        for (size_t i = 0; i < FC_HEADS_BATCH; i++)
            all &= got[i] == (i % 3 == 0 ? 10 : i % 3 == 1 ? -ENOENT : -EISDIR);
    }
    ok(all, "four full batches of files, missing files and folders: each slot freed for the next");
    ok(!fc_heads_read(h, dir, many, FC_HEADS_BATCH + 1, bufs, got), "more than a batch: refused");
    fc_heads_free(h);
    fc_heads_free(NULL);
    free(bufs);
    const char *all_names[] = {"big", "short", "empty", "locked", "fifo"};
    for (size_t i = 0; i < sizeof all_names / sizeof *all_names; i++)
        unlinkat(dir, all_names[i], 0);
    unlinkat(dir, "sub", AT_REMOVEDIR);
    close(dir);
    rmdir(tmp);
    return tap_done();
}
