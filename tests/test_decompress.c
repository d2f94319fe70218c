/* test_decompress.c - zstd and LZ4 payloads against the same image stored uncompressed. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lz4.h>
#include <zstd.h>

#include "decode.h"
#include "fatcheck.h"
#include "file_map.h"
#include "tap.h"
#include "testutil.h"

typedef struct fixture {
    unsigned char *buf;
    size_t size;
    fc_object *obj;
} fixture;

static fixture load(const char *name)
{
    fixture f;
    f.buf = read_fixture(name, &f.size);
    if (fc_decode_fatbin(&f.obj, f.buf, f.size, 0, NULL) != FC_OK) {
        printf("Bail out! %s does not decode\n", name);
        exit(1);
    }
    return f;
}

static void drop(fixture *f)
{
    fc_object_free(f->obj);
    free(f->buf);
}

static const fc_entry *entry(const fixture *f, size_t i)
{
    return &f->obj->containers[0].entries[i];
}

static fc_status inflate(const fixture *f, size_t i, uint64_t limit, void **out, size_t *n)
{
    const fc_entry *e = entry(f, i);
    return fc_decompress(out, n, e->compression,
                         f->buf + e->payload_offset, (size_t)e->stored_size, e->uncompressed_size, limit);
}

/* Where a frame's 4-byte content size field lies (frame header, RFC 8878 3.1.1.1), or 0. */
static size_t content_size_field(const unsigned char *f)
{
    unsigned fhd = f[4];
    if ((fhd >> 6) != 2)
        return 0;
    static const size_t dict_bytes[4] = {0, 1, 2, 4};
    return 5 + ((fhd & 0x20) ? 0 : 1) + dict_bytes[fhd & 3];
}

/* Frames that give their content size are decompressed in one call when they fit a buffer of
 * that size (decompress.c), else streamed: both ways give the same bytes and refuse the same
 * lies. */
static void frames_that_say_their_size(void)
{
    enum { N = 300000 };
    unsigned char *data = malloc(N), *frames = malloc(2 * ZSTD_compressBound(N));
    uint32_t x = 1;
    for (size_t i = 0; i < N; i++) { /* a text of few symbols: about 4 to 1 */
        x = x * 1103515245u + 12345u;
        data[i] = (unsigned char)('a' + ((x >> 16) % 6));
    }
    const char *how[2] = {"in one call (about 4 to 1)", "streamed (over 64 to 1)"};
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 1)
            memset(data, 'z', N); /* compresses far past the one-call ratio */
        size_t a = ZSTD_compress(frames, ZSTD_compressBound(N), data, N, 3);
        /* A second frame after the first: never read, either way. */
        size_t b = ZSTD_compress(frames + a, ZSTD_compressBound(N), "other", 5, 3);
        void *out = NULL;
        size_t n = 0;
        fc_status st = fc_decompress(&out, &n, FC_COMPRESSION_ZSTD, frames, a + b, N, 1u << 24);
        ok(st == FC_OK && n == N && memcmp(out, data, N) == 0, "a frame decoded %s is exact, the next one left", how[kind]);
        free(out);
        size_t at = content_size_field(frames);
        ok(at != 0, "the frame gives its size in 4 bytes (%s)", how[kind]);
        if (!at)
            continue;
        uint32_t said = N - 1000;
        memcpy(frames + at, &said, 4);
        ok(fc_decompress(&out, &n, FC_COMPRESSION_ZSTD, frames, a, N, 1u << 24) == FC_ERR_FORMAT,
           "a frame saying it is shorter than it is is refused (%s)", how[kind]);
        said = N + 1000;
        memcpy(frames + at, &said, 4);
        ok(fc_decompress(&out, &n, FC_COMPRESSION_ZSTD, frames, a, N + 1000, 1u << 24) == FC_ERR_FORMAT,
           "a frame saying it is longer than it is is refused (%s)", how[kind]);
    }
    free(data);
    free(frames);
}

/* OBJ holds SIZE bytes at IMAGE, and E is an entry whose image they all are, stored as HOW
 * and declared to be DECLARED bytes once decompressed. */
static void stored_image(fc_object *obj, fc_entry *e, const void *image, size_t size, fc_compression how,
                         uint64_t declared)
{
    memset(e, 0, sizeof *e);
    e->compression = how;
    e->stored_size = size;
    e->uncompressed_size = declared;
    memset(obj, 0, sizeof *obj);
    obj->image = image;
    obj->size = size;
}

/* fc_entry_find: a key somewhere in a long image, found as it is decompressed through a window,
 * wherever it lies against the window's edges, with the bytes after it; or said absent. */
static void finding_a_key(void)
{
    enum { N = 400000, AFTER = 16 };
    static const char key[] = "Cuda compilation tools, release ";
    const size_t k = sizeof key - 1, small = 2 * (k + AFTER);
    unsigned char *data = malloc(N), *frame = malloc(ZSTD_compressBound(N)), *window = malloc(1u << 18);
    uint32_t x = 7;
    for (size_t i = 0; i < N; i++) { /* lowercase only: the key is nowhere by chance */
        x = x * 1103515245u + 12345u;
        data[i] = (unsigned char)('a' + ((x >> 16) % 6));
    }
    const size_t places[] = {0, 1, small - k - 1, small - k, small - 5, small - 1, small, 3 * small + 7,
                             N / 2, N - k - AFTER, N - k - 3, N - k};
    fc_options o;
    fc_options_init(&o);
    int bad = 0;
    size_t cases = 0;
    for (size_t p = 0; p < sizeof places / sizeof *places; p++) {
        unsigned char saved[64];
        memcpy(saved, data + places[p], k);
        memcpy(data + places[p], key, k);
        if (p == 8) /* a second key further on: the first is the one found */
            memcpy(data + N - 2 * k, key, k);
        size_t stored = ZSTD_compress(frame, ZSTD_compressBound(N), data, N, 3);
        for (int packed = 0; packed < 2; packed++) {
            fc_entry e;
            fc_object obj;
            stored_image(&obj, &e, packed ? (const void *)frame : data, packed ? stored : N,
                         packed ? FC_COMPRESSION_ZSTD : FC_COMPRESSION_NONE, N);
            for (size_t w = small; w <= (1u << 18); w = w == small ? 1u << 18 : w + 1) {
                const uint8_t *hit;
                size_t avail, want = N - places[p] < k + AFTER ? N - places[p] : k + AFTER;
                fc_status st = fc_entry_find(&obj, &e, &o, key, k, AFTER, window, w, &hit, &avail);
                cases++;
                if (st != FC_OK || !hit || avail < want || memcmp(hit, data + places[p], want) != 0) {
                    bad++;
                    printf("# key at %zu, %s, window %zu: %s, %s, %zu bytes\n", places[p], packed ? "zstd" : "plain", w,
                         fc_status_name(st), hit ? "found" : "not found", avail);
                }
            }
        }
        memcpy(data + places[p], saved, k);
        if (p == 8)
            memcpy(data + N - 2 * k, data + N - 3 * k, k);
    }
    ok(bad == 0, "a key found at each of %zu places, stored plain and zstd, in a window of %zu bytes and 256 KiB (%zu cases)",
       sizeof places / sizeof *places, small, cases);
    size_t stored = ZSTD_compress(frame, ZSTD_compressBound(N), data, N, 3);
    fc_entry e;
    fc_object obj;
    stored_image(&obj, &e, frame, stored, FC_COMPRESSION_ZSTD, 0);
    const uint8_t *hit = (const uint8_t *)"x";
    size_t avail = 1;
    ok(fc_entry_find(&obj, &e, &o, key, k, AFTER, window, small, &hit, &avail) == FC_OK && !hit && !avail,
       "an image without the key, read to its end, says so");
    o.max_decompressed_size = N / 2;
    ok(fc_entry_find(&obj, &e, &o, key, k, AFTER, window, small, &hit, &avail) == FC_ERR_LIMIT && !hit,
       "past the decompression limit: FC_ERR_LIMIT");
    fc_options_init(&o);
    e.uncompressed_size = 1ull << 42;
    ok(fc_entry_find(&obj, &e, &o, key, k, AFTER, window, small, &hit, &avail) == FC_ERR_LIMIT && !hit,
       "a size declared past the limit is refused unread (review 6: bombs were inflated up to it)");
    e.uncompressed_size = N;
    fc_options_init(&o);
    ok(fc_entry_find(&obj, &e, &o, key, k, AFTER, window, small - 1, &hit, &avail) == FC_ERR_INVALID,
       "a window smaller than twice the key and what follows it is refused");
    obj.size = stored / 2;
    e.stored_size = stored / 2;
    ok(fc_entry_find(&obj, &e, &o, key, k, AFTER, window, small, &hit, &avail) == FC_ERR_FORMAT && !hit,
       "a frame cut short before any key is a format error");
    e.compression = FC_COMPRESSION_LZ4;
    ok(fc_entry_find(&obj, &e, &o, key, k, AFTER, window, small, &hit, &avail) == FC_ERR_UNSUPPORTED,
       "LZ4 is left to the caller");
    free(data);
    free(frame);
    free(window);
}

/* fc_entry_pieces: the pieces, put together, are fc_entry_image's bytes, whatever the window,
 * for each way an image is stored; and its status is fc_entry_image's where that fails. */
typedef struct joined {
    unsigned char *p;
    size_t n, cap, calls;
} joined;

static void join_piece(void *ctx, const uint8_t *piece, size_t n)
{
    joined *j = ctx;
    if (j->n + n <= j->cap)
        memcpy(j->p + j->n, piece, n);
    j->n += n;
    j->calls++;
}

static void reading_in_pieces(void)
{
    enum { N = 300000 };
    unsigned char *data = malloc(N), *frame = malloc(ZSTD_compressBound(N) + 8), *window = malloc(1u << 18);
    char *lz4 = malloc((size_t)LZ4_compressBound(N));
    uint32_t x = 11;
    for (size_t i = 0; i < N; i++) { /* text-like: compressible */
        x = x * 1103515245u + 12345u;
        data[i] = (unsigned char)(' ' + ((x >> 16) % 40));
    }
    size_t zstored = ZSTD_compress(frame, ZSTD_compressBound(N), data, N, 3);
    int lstored = LZ4_compress_default((const char *)data, lz4, N, LZ4_compressBound(N));
    fc_options o;
    fc_options_init(&o);
    joined j = {.p = malloc(N + 1), .cap = N + 1};
    int bad = 0;
    for (int how = 0; how < 3; how++) {
        fc_entry e;
        fc_object obj;
        stored_image(&obj, &e, how == 0 ? (const void *)data : how == 1 ? (const void *)frame : (const void *)lz4,
                     how == 0 ? N : how == 1 ? zstored : (size_t)lstored,
                     how == 0 ? FC_COMPRESSION_NONE : how == 1 ? FC_COMPRESSION_ZSTD : FC_COMPRESSION_LZ4, N);
        const size_t sizes[] = {1, 4096, 1u << 18, 0};
        for (size_t w = 0; w < sizeof sizes / sizeof *sizes; w++) {
            fc_buffer scratch = {0};
            j.n = j.calls = 0;
            fc_status st = fc_entry_pieces(&obj, &e, &o, window, sizes[w], &scratch, join_piece, &j);
            bool pieces = how == 1 && sizes[w] ? j.calls >= (N + sizes[w] - 1) / sizes[w] : j.calls == 1;
            if (st != FC_OK || j.n != N || memcmp(j.p, data, N) != 0 || !pieces) {
                bad++;
                printf("# stored %d, window %zu: %s, %zu bytes in %zu pieces\n", how, sizes[w], fc_status_name(st), j.n,
                       j.calls);
            }
            fc_buffer_free(&scratch);
        }
    }
    ok(bad == 0, "an image read in pieces is the image, stored plain, zstd and LZ4, in windows of 1 byte to 256 KiB");
    fc_entry e;
    fc_object obj;
    stored_image(&obj, &e, frame, zstored, FC_COMPRESSION_ZSTD, N);
    fc_buffer scratch = {0};
    const uint8_t *bytes;
    size_t n;
    const struct {
        uint64_t stored, declared, limit;
        const char *what;
    } cases[] = {
        {0, N, 0, "whole"},
        {0, N, N / 2, "past the decompression limit"},
        {0, 1ull << 42, 0, "a size declared past the limit"},
        {1, N, 0, "cut short"},
        {2, N, 0, "cut to its header"},
        {3, N, 0, "not a frame"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        e.stored_size = obj.size = cases[c].stored == 0 ? zstored : cases[c].stored == 1 ? zstored / 2 : 6;
        e.uncompressed_size = cases[c].declared;
        obj.image = cases[c].stored == 3 ? (const void *)data : frame;
        fc_options_init(&o);
        if (cases[c].limit)
            o.max_decompressed_size = cases[c].limit;
        fc_status whole = fc_entry_image(&obj, &e, &o, &scratch, &bytes, &n);
        j.n = j.calls = 0;
        fc_status st = fc_entry_pieces(&obj, &e, &o, window, 4096, &scratch, join_piece, &j);
        ok(st == whole && (c == 0) == (st == FC_OK), "zstd %s: %s in pieces, %s whole", cases[c].what,
           fc_status_name(st), fc_status_name(whole));
    }
    fc_buffer_free(&scratch);
    free(j.p);
    free(data);
    free(frame);
    free(lz4);
    free(window);
}

/* Whether fc_entry_head gives the first bytes of entry I of OBJ, up to N, as IMAGE holds them
 * (SIZE bytes). */
static bool head_is(const fc_object *obj, size_t i, size_t n, const unsigned char *image, size_t size)
{
    static unsigned char head[5000];
    size_t got = 0, want = n < size ? n : size;
    return fc_entry_head(obj, &obj->containers[0].entries[i], head, n, &got) == FC_OK && got == want &&
           memcmp(head, image, want) == 0;
}

/* A zstd image's first bytes are inflated block by block, and, from an image in a file
 * mapping, its stored bytes are read by pread rather than through the mapping, whose pages
 * would stay resident (decompress.c: zstd_head; heads over 4 KiB take the streaming decoder):
 * the same bytes every way, none from a first block cut short, and an I/O error once the
 * file is shorter than the image. */
static void heads(const fixture *zstd, const unsigned char *cubin, const unsigned char *ptx)
{
    static const size_t sizes[] = {1, 18, 52, 64, 4096, 4097, 5000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        ok(head_is(zstd->obj, 0, sizes[k], cubin, 7880), "zstd cubin: its first %zu bytes", sizes[k]);
        ok(head_is(zstd->obj, 1, sizes[k], ptx, 2508), "zstd PTX: its first %zu bytes", sizes[k]);
    }
    fc_entry cut = zstd->obj->containers[0].entries[0];
    cut.stored_size -= 1;
    unsigned char head[64];
    size_t got = 1;
    ok(fc_entry_head(zstd->obj, &cut, head, 64, &got) == FC_OK && got == 0,
       "a frame whose first block is cut short gives no bytes");

    /* Frames one after the other, the first a skippable one, as the streaming decoder reads
     * them: the skippable frame gives nothing, the next the image. */
    const fc_entry *z = &zstd->obj->containers[0].entries[0];
    size_t stored = (size_t)z->stored_size;
    unsigned char *two = malloc(12 + stored);
    put32(two, 0x184D2A50);
    put32(two + 4, 4);
    memset(two + 8, 0xee, 4);
    memcpy(two + 12, zstd->buf + z->payload_offset, stored);
    fc_object frames = {.image = two, .size = 12 + stored};
    fc_entry after = *z;
    after.payload_offset = 0;
    after.stored_size = 12 + stored;
    ok(fc_entry_head(&frames, &after, head, 64, &got) == FC_OK && got == 64 && memcmp(head, cubin, 64) == 0,
       "a skippable frame, then the cubin's: the cubin's first 64 bytes");
    free(two);

    char path[] = "/tmp/fc-test-head-XXXXXX";
    int fd = mkstemp(path);
    fc_file_map m = {.slot = -1};
    fc_object *obj = NULL;
    if (fd < 0 || write(fd, zstd->buf, zstd->size) != (ssize_t)zstd->size || fc_file_map_open(&m, fd, zstd->size) != 0 ||
        fc_decode_fatbin(&obj, m.data, zstd->size, 0, NULL) != FC_OK) {
        ok(false, "a copy of compress_size.fatbin is mapped and decoded");
    } else {
        const fc_entry *e = &obj->containers[0].entries[0];
        ok(head_is(obj, 0, 64, cubin, 7880), "mapped: the cubin's first 64 bytes");
        /* The mapping is private: bytes written into it never reach the file, which a read by
         * pread gives. */
        memset((unsigned char *)m.data + e->payload_offset, 0, (size_t)e->stored_size);
        ok(head_is(obj, 0, 64, cubin, 7880), "mapped: read from the file, not the mapping");
        ok(ftruncate(fd, (off_t)(e->payload_offset + 10)) == 0, "the file is cut inside the cubin");
        ok(fc_entry_head(obj, e, head, 64, &got) == FC_ERR_IO, "mapped: a file cut short is an I/O error");
    }
    fc_object_free(obj);
    fc_file_map_close(&m);
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
}

int main(void)
{
    fixture plain = load("compress_none.fatbin");
    fixture zstd = load("compress_size.fatbin");
    fixture lz4 = load("compress_speed.fatbin");
    const uint64_t limit = 1u << 20;
    void *out;
    size_t n;

    /* The uncompressed PTX is padded to 8 bytes; the text itself is 2,508 bytes. */
    const unsigned char *ptx = plain.buf + entry(&plain, 1)->payload_offset;
    const unsigned char *cubin = plain.buf + entry(&plain, 0)->payload_offset;

    is_u64(inflate(&zstd, 1, limit, &out, &n), FC_OK, "zstd PTX decompresses");
    ok(n == 2508 && memcmp(out, ptx, n) == 0, "zstd PTX equals the uncompressed PTX");
    free(out);
    is_u64(inflate(&zstd, 0, limit, &out, &n), FC_OK, "zstd cubin decompresses");
    ok(n == 7880 && memcmp(out, cubin, n) == 0 && memcmp(out, "\177ELF", 4) == 0,
       "zstd cubin equals the uncompressed cubin");
    free(out);
    is_u64(inflate(&lz4, 1, limit, &out, &n), FC_OK, "LZ4 PTX decompresses");
    ok(n == 2508 && memcmp(out, ptx, n) == 0, "LZ4 PTX equals the uncompressed PTX");
    free(out);
    is_u64(inflate(&plain, 0, limit, &out, &n), FC_OK, "an uncompressed entry is copied");
    ok(n == 7880 && memcmp(out, cubin, n) == 0, "the copy is exact");
    free(out);

    /* Limits: the output may never exceed what the caller allows, whatever is declared. */
    is_u64(inflate(&zstd, 0, 4096, &out, &n), FC_ERR_LIMIT, "zstd past the limit is refused");
    ok(out == NULL, "nothing is returned past the limit");
    is_u64(inflate(&lz4, 1, 1000, &out, &n), FC_ERR_LIMIT, "LZ4 past the limit is refused");
    const fc_entry *e = entry(&zstd, 1);
    is_u64(fc_decompress(&out, &n, FC_COMPRESSION_ZSTD,
                         zstd.buf + e->payload_offset, (size_t)e->stored_size, 1ull << 42, 1ull << 30),
           FC_ERR_LIMIT, "a declared size of 4 TiB is refused, not allocated");
    /* A declared size that lies low or high does not change the result. */
    is_u64(fc_decompress(&out, &n, FC_COMPRESSION_ZSTD, zstd.buf + e->payload_offset, (size_t)e->stored_size,
                         16, limit),
           FC_OK, "a declared size that is too small is only a first guess");
    ok(n == 2508 && memcmp(out, ptx, n) == 0, "and the output is still exact");
    free(out);
    const fc_entry *l = entry(&lz4, 1);
    is_u64(fc_decompress(&out, &n, FC_COMPRESSION_LZ4, lz4.buf + l->payload_offset, (size_t)l->stored_size, 0,
                         limit),
           FC_OK, "LZ4 without a declared size grows its buffer");
    ok(n == 2508 && memcmp(out, ptx, n) == 0, "and the output is exact");
    free(out);

    /* One buffer reused across images, as the kernel view does: each output is exact, and a
     * buffer grown by an earlier image does not lift the limit for a later one. */
    fc_buffer reused = {0};
    is_u64(fc_decompress_buffer(FC_COMPRESSION_ZSTD, zstd.buf + entry(&zstd, 0)->payload_offset,
                                (size_t)entry(&zstd, 0)->stored_size, 7880, limit, &reused, &n),
           FC_OK, "reused buffer: the zstd cubin decompresses");
    ok(n == 7880 && memcmp(reused.p, cubin, n) == 0, "reused buffer: the cubin is exact");
    size_t grown = reused.cap;
    is_u64(fc_decompress_buffer(FC_COMPRESSION_LZ4, lz4.buf + l->payload_offset, (size_t)l->stored_size, 2508,
                                limit, &reused, &n),
           FC_OK, "reused buffer: then the LZ4 PTX");
    ok(n == 2508 && memcmp(reused.p, ptx, n) == 0 && reused.cap == grown,
       "reused buffer: the PTX is exact and the buffer did not grow");
    is_u64(fc_decompress_buffer(FC_COMPRESSION_ZSTD, zstd.buf + entry(&zstd, 0)->payload_offset,
                                (size_t)entry(&zstd, 0)->stored_size, 7880, 4096, &reused, &n),
           FC_ERR_LIMIT, "reused buffer: zstd past a smaller limit is still refused");
    is_u64(fc_decompress_buffer(FC_COMPRESSION_LZ4, lz4.buf + l->payload_offset, (size_t)l->stored_size, 0, 1000,
                                &reused, &n),
           FC_ERR_LIMIT, "reused buffer: LZ4 past a smaller limit is still refused");
    is_u64(fc_decompress_buffer(FC_COMPRESSION_ZSTD, zstd.buf + e->payload_offset, (size_t)e->stored_size, 2508,
                                limit, &reused, &n),
           FC_OK, "reused buffer: after a refusal it still works");
    ok(n == 2508 && memcmp(reused.p, ptx, n) == 0, "reused buffer: and the output is exact");
    free(reused.p);

    /* Corrupt and truncated streams. */
    unsigned char bad[2048];
    memcpy(bad, zstd.buf + e->payload_offset, (size_t)e->stored_size);
    for (size_t i = 20; i < 200; i++)
        bad[i] ^= 0x5a;
    ok(fc_decompress(&out, &n, FC_COMPRESSION_ZSTD, bad, (size_t)e->stored_size, 2508, limit) == FC_ERR_FORMAT,
       "corrupt zstd is a format error");
    ok(fc_decompress(&out, &n, FC_COMPRESSION_ZSTD, zstd.buf + e->payload_offset, 100, 2508, limit) ==
           FC_ERR_FORMAT,
       "truncated zstd is a format error");
    memcpy(bad, lz4.buf + l->payload_offset, (size_t)l->stored_size);
    memset(bad + 8, 0xff, 64);
    fc_status st = fc_decompress(&out, &n, FC_COMPRESSION_LZ4, bad, (size_t)l->stored_size, 2508, limit);
    ok(st == FC_ERR_FORMAT || st == FC_ERR_LIMIT, "corrupt LZ4 is refused (%s)", fc_status_name(st));
    ok(fc_decompress(&out, &n, FC_COMPRESSION_UNKNOWN, bad, 10, 0, limit) == FC_ERR_UNSUPPORTED,
       "an unknown method is unsupported");
    ok(fc_decompress(&out, &n, FC_COMPRESSION_ZSTD, NULL, 10, 0, limit) == FC_ERR_INVALID,
       "NULL input is an invalid argument");

    frames_that_say_their_size();
    finding_a_key();
    reading_in_pieces();
    heads(&zstd, cubin, ptx);
    drop(&plain);
    drop(&zstd);
    drop(&lz4);
    return tap_done();
}
