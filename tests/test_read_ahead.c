/* test_read_ahead.c - reading container heads ahead (fatbin.c's read_ahead over reader.c's
 * window and read_batch.c's ring) changes nothing a walk finds: a chain of containers of one
 * to seven entries, with zero padding between some, walked with no heads, the true heads,
 * and heads that lie (shifted, inside payloads, repeated, out of order, past the end), and
 * with containers whose entry headers lie. The window's own rules are tested too: blocks cut
 * at the reader's end, offsets outside it passed over, its capacity. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "read_batch.h"
#include "reader.h"
#include "tap.h"
#include "testutil.h"

#define N_CONTAINERS 300u
#define BASE 4096u /* file position of offset 0 of the object: as for an archive member */

static uint64_t starts[N_CONTAINERS];

/* Writes the chain at BUF; returns its length. Container i has 1 + i % 7 cubin entries. */
static size_t chain(unsigned char *buf)
{
    size_t at = 0;
    for (unsigned i = 0; i < N_CONTAINERS; i++) {
        if (i % 11 == 5)
            at += 8 * (1 + i % 3); /* zero padding, as the linker leaves */
        starts[i] = at;
        unsigned char *c = buf + at;
        unsigned entries = 1 + i % 7;
        size_t body = 0;
        for (unsigned k = 0; k < entries; k++) {
            unsigned char *e = c + 16 + body;
            uint64_t payload = 200 + 1500 * ((i * 7 + k * 13) % 23); /* up to 33 KiB */
            memset(e, 0, 64);
            put16(e, 2);                     /* a cubin */
            put16(e + 2, 0x0101);
            put32(e + 4, 64);                /* header size */
            put64(e + 8, payload);
            put16(e + 24, 8);
            put16(e + 26, 1);
            put32(e + 28, 75 + 5 * ((i + k) % 10));
            put64(e + 40, 0x11);             /* 64-bit, Linux */
            memset(e + 64, (int)(1 + k), payload);
            body += 64 + payload;
        }
        put32(c, 0xBA55ED50u);
        put16(c + 4, 1);
        put16(c + 6, 16);
        put64(c + 8, body);
        at += 16 + body;
    }
    return at;
}

/* What a walk finds, as text: each container's offset, size and entries. */
static char *walk_text(int fd, size_t size, const uint64_t *heads, size_t n_heads, size_t *windows)
{
    fc_builder b;
    fc_reader r;
    if (fc_builder_init(&b, NULL, "chain", NULL, NULL) != FC_OK || !fc_reader_file(&r, fd, BASE, 0, size, 0))
        return NULL;
    if (n_heads)
        fc_reader_heads_at(&r, heads, n_heads);
    uint64_t next;
    fc_status st = fc_fatbin_walk(&b, &r, 0, size, size, FC_ORIGIN_SECTION, ".nv_fatbin", &next);
    *windows = r.n_win;
    fc_reader_free(&r);
    const fc_object *o = fc_builder_finish(&b);
    size_t cap = 64 + o->n_containers * 64 + b.n_entries * 64 + (o->error ? strlen(o->error) : 0);
    char *out = malloc(cap), *p = out;
    p += sprintf(p, "status %d next %llu %s\n", (int)st, (unsigned long long)next, o->error ? o->error : "");
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *c = &o->containers[i];
        p += sprintf(p, "c %llu %llu\n", (unsigned long long)c->offset, (unsigned long long)c->size);
        for (size_t k = 0; k < c->n_entries; k++)
            p += sprintf(p, " e %llu %llu %u\n", (unsigned long long)c->entries[k].offset,
                         (unsigned long long)c->entries[k].payload_size, c->entries[k].arch);
    }
    fc_builder_reset(&b);
    return out;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_walks(int fd, size_t size)
{
    size_t win;
    char *plain = walk_text(fd, size, NULL, 0, &win);
    ok(plain && strncmp(plain, "status 0 ", 9) == 0, "the chain walks without heads");
    bool batched = fc_read_batch_usable();
    if (!batched)
        printf("# io_uring cannot be used here: every walk below reads as the plain one does\n");
    char *with = walk_text(fd, size, starts, N_CONTAINERS, &win);
    is_str(with, plain, "the true heads: the same containers and entries");
    ok(!batched || win > 0, "the true heads: blocks were read ahead");
    free(with);

    uint64_t lie[N_CONTAINERS];
    const char *what[] = {"every head 8 bytes late", "heads inside payloads", "each head twice, the second late",
                          "heads out of order", "heads past the end", "every other head missing"};
    for (int kind = 0; kind < 6; kind++) {
        size_t n = 0;
        for (unsigned i = 0; i < N_CONTAINERS; i++) {
            switch (kind) {
            case 0: lie[n++] = starts[i] + 8; break;
            case 1: lie[n++] = starts[i] + 200; break;
            case 2: if (n + 2 <= N_CONTAINERS) { lie[n++] = starts[i]; lie[n++] = starts[i] + 1; } break;
            case 3: lie[n++] = starts[N_CONTAINERS - 1 - i]; break;
            case 4: lie[n++] = size + i; break;
            case 5: if (i % 2) lie[n++] = starts[i]; break;
            }
        }
        if (kind != 3)
            qsort(lie, n, sizeof *lie, cmp_u64); /* fc_reader_heads_at takes them sorted; 3 tests it does not need to */
        with = walk_text(fd, size, lie, n, &win);
        is_str(with, plain, "%s: the same containers and entries", what[kind]);
        free(with);
    }
    free(plain);
}

/* A chain whose 100th container has an entry header claiming more than the container holds,
 * and whose 200th has a header size below the minimum: the walk stops where the plain one
 * does, with the same error. */
static void test_lying_entries(unsigned char *buf, size_t size, const char *path)
{
    put64(buf + starts[100] + 16 + 8, 1u << 30);
    put32(buf + starts[200] + 16 + 4, 8);
    int fd = open(path, O_RDWR | O_TRUNC);
    ok(fd >= 0 && pwrite(fd, buf, size, BASE) == (ssize_t)size, "damaged chain written");
    size_t win;
    char *plain = walk_text(fd, size, NULL, 0, &win);
    char *with = walk_text(fd, size, starts, N_CONTAINERS, &win);
    ok(plain && strstr(plain, "runs past the container"), "damaged: the plain walk stops at the lying entry");
    is_str(with, plain, "damaged: read ahead, the same stop and error");
    free(plain);
    free(with);
    close(fd);
}

static void test_window(int fd, size_t size)
{
    if (!fc_read_batch_usable()) {
        printf("# io_uring cannot be used here: fc_reader_read_ahead reads nothing\n");
        return;
    }
    fc_reader r;
    ok(fc_reader_file(&r, fd, BASE, 0, size, 0), "reader made");
    uint64_t at[3] = {starts[3], size - 100, size + 5};
    is_u64(fc_reader_read_ahead(&r, at, 3, true), 3, "three offsets taken");
    is_u64(r.n_win, 2, "the one past the reader's end is passed over");
    size_t got;
    const uint8_t *p = fc_reader_peek(&r, size - 100, 50, &got);
    ok(p && got == 100, "a block at the end holds what is left (100 bytes)");
    ok(!fc_reader_peek(&r, size - 100, 101, &got), "no more than that");
    p = fc_reader_peek(&r, starts[3] + 16, 16, &got);
    ok(p && got == FC_READER_SMALL_READ - 16 && p[0] == 2, "peek inside a block: its bytes, from the file");
    ok(!fc_reader_peek(&r, starts[3] + FC_READER_SMALL_READ, 1, &got), "peek past a block: nothing");
    p = fc_reader_get(&r, starts[3], 16, &got);
    ok(p && got == FC_READER_SMALL_READ && p[0] == 0x50, "get serves a block read ahead");
    uint64_t many[FC_READER_WINDOW + 10];
    for (size_t i = 0; i < FC_READER_WINDOW + 10; i++)
        many[i] = i * 8;
    is_u64(fc_reader_read_ahead(&r, many, FC_READER_WINDOW + 10, true), FC_READER_WINDOW,
           "a fresh window takes as many blocks as it holds");
    is_u64(fc_reader_read_ahead(&r, many, 5, false), 0, "a full window takes no more");
    ok(!fc_reader_peek(&r, starts[3], 1, &got) || starts[3] < FC_READER_WINDOW * 8 + FC_READER_SMALL_READ,
       "a fresh window forgets the blocks before it");
    fc_reader_free(&r);
    fc_reader m;
    unsigned char mem[64] = {0};
    fc_reader_memory(&m, mem, 0, sizeof mem);
    is_u64(fc_reader_read_ahead(&m, at, 1, true), 0, "a memory reader reads nothing ahead");
}

int main(void)
{
    size_t cap = N_CONTAINERS * (16 + 7 * (64 + 200 + 1500 * 22) + 32);
    unsigned char *buf = calloc(1, cap);
    size_t size = chain(buf);
    char path[] = "/tmp/fc_read_ahead_XXXXXX";
    int fd = mkstemp(path);
    ok(fd >= 0 && pwrite(fd, buf, size, BASE) == (ssize_t)size, "a chain of %u containers written", N_CONTAINERS);
    test_walks(fd, size);
    test_window(fd, size);
    close(fd);
    test_lying_entries(buf, size, path);
    unlink(path);
    free(buf);
    fc_read_batch_thread_end();
    return tap_done();
}
