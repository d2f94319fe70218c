/* decompress.c - zstd and LZ4 behind one call whose output never exceeds a caller's limit.
 * Output goes into a buffer that callers reading many images reuse, so that their memory
 * is bounded by the largest image, not by the sum of them. */
#include <lz4.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
/* zstd_head decodes block by block: the bufferless API (stable since zstd 1.0). */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "decode.h"
#include "fatcheck.h"
#include "file_map.h"
#include "image.h"
#include "pread_full.h"

/* One decompression context per thread, kept: creating one per image cost more than a
 * small image's decompression. Freed when the thread ends. */
static pthread_key_t dctx_key;
static pthread_once_t dctx_once = PTHREAD_ONCE_INIT;

static void free_dctx(void *p)
{
    ZSTD_freeDCtx(p);
}

static void make_key(void)
{
    pthread_key_create(&dctx_key, free_dctx);
}

static ZSTD_DCtx *thread_dctx(void)
{
    pthread_once(&dctx_once, make_key);
    ZSTD_DCtx *d = pthread_getspecific(dctx_key);
    if (!d && (d = ZSTD_createDCtx()) != NULL)
        pthread_setspecific(dctx_key, d);
    else if (d)
        ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    return d;
}

/* Makes BUF hold at least WANT bytes (keeping its contents). */
/* From this size on, a buffer whose owner asked for it is mapped rather than malloc'd. */
#define MAP_FROM (1u << 20)

bool fc_buffer_reserve(fc_buffer *buf, size_t want)
{
    if (want <= buf->cap)
        return true;
    if (buf->map_large && (buf->mapped || want >= MAP_FROM)) {
        void *p = buf->mapped ? mremap(buf->p, buf->cap, want, MREMAP_MAYMOVE)
                              : mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        if (!buf->mapped && buf->cap)
            memcpy(p, buf->p, buf->cap);
        if (!buf->mapped)
            free(buf->p);
        buf->p = p;
        buf->cap = want;
        buf->mapped = true;
        return true;
    }
    uint8_t *p = realloc(buf->p, want ? want : 1);
    if (!p)
        return false;
    buf->p = p;
    buf->cap = want;
    return true;
}

void fc_buffer_free(fc_buffer *buf)
{
    if (buf->mapped)
        munmap(buf->p, buf->cap);
    else
        free(buf->p);
    buf->p = NULL;
    buf->cap = 0;
    buf->mapped = false;
}

/* The first size to try: the declared one, but never far beyond what the input could
 * plausibly expand to before the stream itself proves it. */
static size_t first_guess(size_t src_size, uint64_t declared, uint64_t most_ratio, uint64_t limit)
{
    uint64_t plausible = (uint64_t)src_size * most_ratio + 65536;
    uint64_t g = declared && declared < plausible ? declared : plausible;
    return (size_t)(g < limit ? g : limit);
}

/* How much larger than its input a frame may say it is and still be decompressed in one
 * call into a buffer of that size: cuDNN's images run to 26 times. */
#define ONE_CALL_RATIO 64

/* Whether the frame at SRC asks for a window the streaming decoder takes (at most 2^27 bytes,
 * its default ZSTD_d_windowLogMax): a frame it refuses is left to it, so that the one-call
 * path accepts nothing the stream did not. The window is in the frame header (RFC 8878
 * 3.1.1.1.2); a single-segment frame's is its content size FCS. */
static bool window_streamable(const uint8_t *src, size_t src_size, unsigned long long fcs)
{
    const unsigned long long most = 1ull << 27;
    if (src_size < 6)
        return false;
    if (src[4] & 0x20) /* Single_Segment_flag */
        return fcs <= most;
    unsigned exponent = src[5] >> 3, mantissa = src[5] & 7;
    unsigned long long base = 1ull << (10 + exponent);
    return base + base / 8 * mantissa <= most;
}

static fc_status zstd_stream(const void *src, size_t src_size, uint64_t declared, uint64_t limit, fc_buffer *buf,
                             size_t *len)
{
    ZSTD_DCtx *dctx = thread_dctx();
    if (!dctx)
        return FC_ERR_NOMEM;
    size_t cap = first_guess(src_size, declared, 16, limit);
    if (!fc_buffer_reserve(buf, cap))
        return FC_ERR_NOMEM;
    /* A frame that gives its size, when the buffer holds that, is decompressed in one call
     * straight into it: the streaming decoder keeps a window buffer of its own in each
     * thread's context (8.8 MiB for cuBLASLt's frames; 16 of them in the kernel view). Only
     * the first frame is decoded, as the stream below would; one whose content is not its
     * size goes the streaming way and fails or grows there. */
    unsigned long long fcs = ZSTD_getFrameContentSize(src, src_size);
    size_t frame = ZSTD_findFrameCompressedSize(src, src_size);
    if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != ZSTD_CONTENTSIZE_ERROR && fcs <= limit && !ZSTD_isError(frame) &&
        window_streamable(src, src_size, fcs) && fcs <= first_guess(src_size, fcs, ONE_CALL_RATIO, limit) &&
        fc_buffer_reserve(buf, (size_t)fcs)) {
        size_t r = ZSTD_decompressDCtx(dctx, buf->p, (size_t)fcs, src, frame);
        if (!ZSTD_isError(r) && r == fcs) {
            *len = r;
            return FC_OK;
        }
        ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
    }
    ZSTD_inBuffer in = {src, src_size, 0};
    ZSTD_outBuffer ob = {buf->p, buf->cap < limit ? buf->cap : (size_t)limit, 0};
    for (;;) {
        size_t r = ZSTD_decompressStream(dctx, &ob, &in);
        if (ZSTD_isError(r))
            return FC_ERR_FORMAT;
        if (r == 0) /* frame complete */
            break;
        if (in.pos == in.size && ob.pos < ob.size) /* input ended inside the frame */
            return FC_ERR_FORMAT;
        if (ob.pos == ob.size) {
            if (ob.size >= limit)
                return FC_ERR_LIMIT;
            size_t ncap = ob.size > limit / 2 ? (size_t)limit : ob.size * 2;
            if (!fc_buffer_reserve(buf, ncap))
                return FC_ERR_NOMEM;
            ob.dst = buf->p;
            ob.size = ncap;
        }
    }
    *len = ob.pos;
    return FC_OK;
}

static fc_status lz4_block(const void *src, size_t src_size, uint64_t declared, uint64_t limit, fc_buffer *buf,
                           size_t *len)
{
    if (src_size > LZ4_MAX_INPUT_SIZE)
        return FC_ERR_LIMIT;
    /* A raw LZ4 block does not record its size: start at the declared size and grow, since
     * "too small" and "corrupt" look the same to LZ4_decompress_safe. LZ4's worst ratio is
     * 255:1; past that a stream is corrupt, not large. */
    uint64_t most = (uint64_t)src_size * 255 + 16;
    uint64_t cap = declared ? first_guess(src_size, declared, 255, limit) : (uint64_t)src_size * 4;
    if (cap > limit)
        cap = limit;
    if (cap == 0)
        cap = 1;
    for (;;) {
        if (cap > (uint64_t)INT32_MAX)
            return FC_ERR_LIMIT;
        if (!fc_buffer_reserve(buf, (size_t)cap))
            return FC_ERR_NOMEM;
        int n = LZ4_decompress_safe(src, (char *)buf->p, (int)src_size, (int)cap);
        if (n >= 0) {
            *len = (size_t)n;
            return FC_OK;
        }
        if (cap >= limit || cap >= most)
            return cap >= limit ? FC_ERR_LIMIT : FC_ERR_FORMAT;
        cap = cap > limit / 2 ? limit : cap * 2;
    }
}

fc_status fc_decompress_buffer(fc_compression m, const void *src, size_t src_size, uint64_t declared,
                               uint64_t limit, fc_buffer *buf, size_t *len)
{
    *len = 0;
    if (!src && src_size)
        return FC_ERR_INVALID;
    if (declared > limit)
        return FC_ERR_LIMIT;
    switch (m) {
    case FC_COMPRESSION_NONE:
        if (src_size > limit)
            return FC_ERR_LIMIT;
        if (!fc_buffer_reserve(buf, src_size))
            return FC_ERR_NOMEM;
        if (src_size)
            memcpy(buf->p, src, src_size);
        *len = src_size;
        return FC_OK;
    case FC_COMPRESSION_ZSTD: {
        /* The frame's own content size is as untrusted as the entry's. */
        unsigned long long fcs = ZSTD_getFrameContentSize(src, src_size);
        if (fcs == ZSTD_CONTENTSIZE_ERROR)
            return FC_ERR_FORMAT;
        if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs > limit)
            return FC_ERR_LIMIT;
        uint64_t guess = declared ? declared : (fcs != ZSTD_CONTENTSIZE_UNKNOWN ? fcs : 0);
        return zstd_stream(src, src_size, guess, limit, buf, len);
    }
    case FC_COMPRESSION_LZ4:
        return lz4_block(src, src_size, declared, limit, buf, len);
    case FC_COMPRESSION_UNKNOWN:
        break;
    }
    return FC_ERR_UNSUPPORTED;
}

fc_status fc_decompress(void **out, size_t *out_size, fc_compression m, const void *src, size_t src_size,
                        uint64_t declared, uint64_t limit)
{
    if (!out || !out_size)
        return FC_ERR_INVALID;
    *out = NULL;
    *out_size = 0;
    fc_buffer buf = {0};
    fc_status st = fc_decompress_buffer(m, src, src_size, declared, limit, &buf, out_size);
    /* SRC may be an object's image, mapped from a file cut short meanwhile: what lay past
     * its new end read as zeros (file_map.h). */
    if (src && fc_file_map_range_changed(src, src_size))
        st = FC_ERR_IO;
    if (st != FC_OK) {
        free(buf.p);
        *out_size = 0;
        return st;
    }
    if (!buf.p && !(buf.p = malloc(1)))
        return FC_ERR_NOMEM;
    *out = buf.p;
    return FC_OK;
}

/* Where entry E's stored image lies in OBJ's bytes: FC_ERR_UNSUPPORTED without them,
 * FC_ERR_FORMAT when it runs past them. */
fc_status fc_entry_stored(const fc_object *obj, const fc_entry *e, const uint8_t **src)
{
    if (!obj->image)
        return FC_ERR_UNSUPPORTED;
    if (e->payload_offset > obj->size || e->stored_size > obj->size - e->payload_offset)
        return FC_ERR_FORMAT;
    *src = (const uint8_t *)obj->image + e->payload_offset;
    return FC_OK;
}

bool fc_entry_stored_done(const fc_object *obj, const fc_entry *e)
{
    if (!obj->image_reclaimable || e->payload_offset > obj->size || e->stored_size > obj->size - e->payload_offset)
        return true;
    bool changed = fc_file_map_range_changed((const uint8_t *)obj->image + e->payload_offset, e->stored_size);
    fc_image img = {obj->image, (size_t)obj->size, -1, true};
    fc_image_release(&img, e->payload_offset, e->stored_size);
    return !changed;
}

fc_status fc_entry_image(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_buffer *scratch,
                         const uint8_t **bytes, size_t *len)
{
    *bytes = NULL;
    *len = 0;
    const uint8_t *src;
    fc_status where = fc_entry_stored(obj, e, &src);
    if (where != FC_OK)
        return where;
    if (e->compression == FC_COMPRESSION_NONE) {
        *bytes = src;
        *len = (size_t)e->stored_size;
        return FC_OK;
    }
    fc_options defaults;
    if (!(opts = fc_options_resolve(opts, &defaults)))
        return FC_ERR_INVALID;
    fc_status st = fc_decompress_buffer(e->compression, src, (size_t)e->stored_size, e->uncompressed_size,
                                        opts->max_decompressed_size, scratch, len);
    if (obj->image_reclaimable && fc_file_map_range_changed(src, (size_t)e->stored_size))
        st = FC_ERR_IO; /* the file was cut short meanwhile: zeros were read (file_map.h) */
    if (st == FC_OK)
        *bytes = scratch->p;
    return st;
}

/* ZSTD's part of fc_entry_pieces: the first frame, as zstd_stream decodes it, through WINDOW. */
static fc_status zstd_pieces(const uint8_t *src, size_t src_size, uint64_t limit, uint8_t *window, size_t size,
                             fc_piece_fn fn, void *ctx)
{
    ZSTD_DCtx *dctx = thread_dctx();
    if (!dctx)
        return FC_ERR_NOMEM;
    ZSTD_inBuffer in = {src, src_size, 0};
    uint64_t total = 0;
    for (;;) {
        ZSTD_outBuffer ob = {window, size, 0};
        size_t r = ZSTD_decompressStream(dctx, &ob, &in);
        if (ZSTD_isError(r))
            return FC_ERR_FORMAT;
        total += ob.pos;
        if (total > limit)
            return FC_ERR_LIMIT;
        if (ob.pos)
            fn(ctx, window, ob.pos);
        if (r == 0) /* frame complete */
            return FC_OK;
        if (in.pos == in.size && ob.pos < ob.size) /* input ended inside the frame */
            return FC_ERR_FORMAT;
    }
}

fc_status fc_entry_pieces(const fc_object *obj, const fc_entry *e, const fc_options *opts, uint8_t *window,
                          size_t size, fc_buffer *scratch, fc_piece_fn fn, void *ctx)
{
    if (e->compression != FC_COMPRESSION_ZSTD || !size) {
        const uint8_t *bytes;
        size_t n;
        fc_status st = fc_entry_image(obj, e, opts, scratch, &bytes, &n);
        if (st == FC_OK && n)
            fn(ctx, bytes, n);
        return st;
    }
    const uint8_t *src;
    fc_status where = fc_entry_stored(obj, e, &src);
    if (where != FC_OK)
        return where;
    fc_options defaults;
    if (!(opts = fc_options_resolve(opts, &defaults)))
        return FC_ERR_INVALID;
    size_t src_size = (size_t)e->stored_size;
    /* Refused unread where fc_decompress_buffer refuses: a declared size, the entry's or the
     * frame's, past the limit, or no frame. */
    unsigned long long fcs = ZSTD_getFrameContentSize(src, src_size);
    if (fcs == ZSTD_CONTENTSIZE_ERROR)
        return FC_ERR_FORMAT;
    if (e->uncompressed_size > opts->max_decompressed_size ||
        (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs > opts->max_decompressed_size))
        return FC_ERR_LIMIT;
    fc_status st = zstd_pieces(src, src_size, opts->max_decompressed_size, window, size, fn, ctx);
    if (obj->image_reclaimable && fc_file_map_range_changed(src, src_size))
        st = FC_ERR_IO; /* the file was cut short meanwhile: zeros were read (file_map.h) */
    return st;
}

size_t fc_lz4_head(const void *src, size_t n, void *dst, size_t want)
{
    if (n > LZ4_MAX_INPUT_SIZE || want > (size_t)INT32_MAX)
        return 0;
    /* The safe decoder reads no more than N bytes and writes no more than WANT: it stops at
     * WANT bytes, or reads a block cut short as corrupt. */
    int r = LZ4_decompress_safe_partial(src, dst, (int)n, (int)want, (int)want);
    return r > 0 ? (size_t)r : 0;
}

fc_zstd_size fc_zstd_content_size(const void *p, size_t n, uint64_t *size)
{
    ZSTD_frameHeader h;
    size_t r = ZSTD_getFrameHeader(&h, p, n);
    if (ZSTD_isError(r) || (r == 0 && h.frameType != ZSTD_frame))
        return FC_ZSTD_SIZE_BAD;
    if (r > 0) /* that many bytes are needed to read the header */
        return FC_ZSTD_SIZE_SHORT;
    if (h.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN)
        return FC_ZSTD_SIZE_ABSENT;
    *size = h.frameContentSize;
    return FC_ZSTD_SIZE_KNOWN;
}

/* Reads an LZ4 length continuation at *IP (before END): bytes of 255 go on. */
static bool lz4_more(const uint8_t **ip, const uint8_t *end, uint64_t *len)
{
    unsigned b;
    do {
        if (*ip >= end)
            return false;
        b = *(*ip)++;
        *len += b;
    } while (b == 255);
    return true;
}

/* A raw LZ4 block records no size: the driver must be given one, the entry's, and it refused
 * blocks that inflate to 64 bytes more or fewer, or under a size of 0 (209, review of
 * 2026-12-03, v24, v25, v26c). The block's sequences are walked without writing their output
 * (inflating cuBLASLt 11.8's sm_80 cubins took --strict from 30 to 500 ms): literals within
 * the block, every match within what came before it, the last sequence literals only and
 * ending with the block. */
fc_status fc_lz4_inflates_to(const void *src, size_t n, uint64_t declared, uint64_t limit, bool *exact)
{
    *exact = false;
    if (declared > limit)
        return FC_ERR_LIMIT;
    const uint8_t *ip = src, *end = ip + n;
    uint64_t out = 0;
    while (ip < end) {
        unsigned token = *ip++;
        uint64_t lit = token >> 4, match = token & 15;
        if (lit == 15 && !lz4_more(&ip, end, &lit))
            return FC_OK;
        if (lit > (uint64_t)(end - ip))
            return FC_OK;
        ip += lit;
        out += lit;
        if (ip == end)
            break; /* the last sequence: literals only */
        if (end - ip < 2)
            return FC_OK;
        unsigned offset = ip[0] | (unsigned)ip[1] << 8;
        ip += 2;
        if (offset == 0 || offset > out)
            return FC_OK;
        if (match == 15 && !lz4_more(&ip, end, &match))
            return FC_OK;
        out += match + 4;
        if (out > declared)
            return FC_OK; /* past the driver's buffer */
    }
    *exact = n > 0 && out == declared;
    return FC_OK;
}

/* The first N bytes of the zstd frame at SRC through the streaming decoder, for heads longer
 * than zstd_head takes. A frame cut short gives the bytes its whole blocks hold. */
static fc_status zstd_head_streamed(const uint8_t *src, size_t src_size, void *buf, size_t n, size_t *got)
{
    ZSTD_DCtx *dctx = thread_dctx();
    if (!dctx)
        return FC_ERR_NOMEM;
    ZSTD_inBuffer in = {src, src_size, 0};
    ZSTD_outBuffer ob = {buf, n, 0};
    while (ob.pos < ob.size) {
        size_t r = ZSTD_decompressStream(dctx, &ob, &in);
        if (ZSTD_isError(r))
            return FC_ERR_FORMAT;
        if (r == 0 || (in.pos == in.size && ob.pos < ob.size))
            break;
    }
    *got = ob.pos;
    return FC_OK;
}

/* zstd_head's room, kept per thread: the bytes inflated (a block inflates to at most 128 KiB,
 * RFC 8878 3.1.1.2.3, and each is inflated after fewer than FC_ENTRY_HEAD_MAX bytes out), then
 * the stored bytes a step reads (a block's, at most 128 KiB and its 3-byte header). */
#define ZSTD_BLOCK_MAX (128u << 10)
#define FC_ENTRY_HEAD_MAX 4096u
#define HEAD_OUT (FC_ENTRY_HEAD_MAX + ZSTD_BLOCK_MAX)
#define HEAD_IN (ZSTD_BLOCK_MAX + 64u)

static pthread_key_t room_key;
static pthread_once_t room_once = PTHREAD_ONCE_INIT;

static void make_room_key(void)
{
    pthread_key_create(&room_key, free);
}

/* NEED stored bytes from POS of SRC: read into IN by pread where SRC lies in a file mapping
 * (FD >= 0, at file offset AT), so that they are not faulted into the mapping, else where they
 * lie. NULL when the file has fewer now. */
static const uint8_t *stored_bytes(const uint8_t *src, int fd, uint64_t at, size_t pos, size_t need, uint8_t *in)
{
    if (fd < 0 || need > HEAD_IN) /* (a skippable frame's body, were one there) */
        return src + pos;
    return fc_pread_full(fd, in, need, at + pos, NULL) == need ? in : NULL;
}

/* The first N (at most FC_ENTRY_HEAD_MAX) bytes of the zstd frame at SRC, block by block through
 * zstd's bufferless API. The streaming decoder gives the same bytes but keeps a window buffer
 * as large as the frame's window in each thread's context (8.8 MiB for cuBLASLt's frames), and
 * reading a first block through the file mapping keeps its pages and the kernel's read-around
 * resident: --strict, which reads an ELF header from every chosen zstd cubin, held 365-457
 * MiB of site-packages' on the H200, against 80 without it. A frame cut short gives the bytes
 * its whole blocks hold. */
static fc_status zstd_head(const uint8_t *src, size_t src_size, void *buf, size_t n, size_t *got)
{
    if (n > FC_ENTRY_HEAD_MAX)
        return zstd_head_streamed(src, src_size, buf, n, got);
    pthread_once(&room_once, make_room_key);
    uint8_t *room = pthread_getspecific(room_key);
    if (!room && (!(room = malloc(HEAD_OUT + HEAD_IN)) || pthread_setspecific(room_key, room) != 0)) {
        free(room);
        return FC_ERR_NOMEM;
    }
    ZSTD_DCtx *dctx = thread_dctx();
    if (!dctx || ZSTD_isError(ZSTD_decompressBegin(dctx)))
        return FC_ERR_NOMEM;
    int fd = -1;
    uint64_t at = 0;
    if (!fc_file_map_locate(src, src_size, &fd, &at))
        fd = -1;
    size_t pos = 0, out = 0;
    while (out < n) {
        size_t need = ZSTD_nextSrcSizeToDecompress(dctx);
        if (need == 0 && pos < src_size) { /* a frame ended (a skippable one?): on to the next, */
            if (ZSTD_isError(ZSTD_decompressBegin(dctx)))  /* as the streaming decoder goes */
                return FC_ERR_NOMEM;
            continue;
        }
        if (need == 0 || need > src_size - pos) /* the frames ended, or their bytes did */
            break;
        const uint8_t *in = stored_bytes(src, fd, at, pos, need, room + HEAD_OUT);
        if (!in)
            return FC_ERR_IO;
        size_t r = ZSTD_decompressContinue(dctx, room + out, HEAD_OUT - out, in, need);
        if (ZSTD_isError(r))
            return FC_ERR_FORMAT;
        pos += need;
        out += r;
    }
    *got = out < n ? out : n;
    memcpy(buf, room, *got);
    return FC_OK;
}

/* A small head of an uncompressed or LZ4 image whose stored bytes lie in a file mapping: its
 * first stored bytes read by pread, so that neither they nor the pages the kernel maps around
 * them (fault-around) stay resident: rule 13's look at 473 LZ4 cubins of libmagma.so.2 for a
 * 470 driver took its peak from 10 to 18 MiB through the mapping. True when *GOT is filled;
 * false leaves it to the mapping. */
#define SMALL_HEAD_STORED 1024u
static bool small_head_by_pread(const uint8_t *src, size_t src_size, fc_compression m, void *buf, size_t n,
                                size_t *got)
{
    uint8_t in[SMALL_HEAD_STORED];
    int fd;
    uint64_t at;
    size_t want = m == FC_COMPRESSION_NONE ? (n < src_size ? n : src_size)
                                           : (src_size < sizeof in ? src_size : sizeof in);
    if (n > 256 || want > sizeof in || !fc_file_map_locate(src, src_size, &fd, &at) ||
        fc_pread_full(fd, in, want, at, NULL) != want)
        return false;
    if (m == FC_COMPRESSION_NONE) {
        memcpy(buf, in, want);
        *got = want;
        return true;
    }
    /* Fewer than asked for from the first stored bytes: the mapping's whole block decides. */
    size_t k = fc_lz4_head(in, want, buf, n);
    if (k < n)
        return false;
    *got = k;
    return true;
}

fc_status fc_entry_head(const fc_object *obj, const fc_entry *e, void *buf, size_t n, size_t *got)
{
    *got = 0;
    const uint8_t *src;
    fc_status where = fc_entry_stored(obj, e, &src);
    if (where != FC_OK)
        return where;
    size_t src_size = (size_t)e->stored_size;
    if ((e->compression == FC_COMPRESSION_NONE || e->compression == FC_COMPRESSION_LZ4) &&
        small_head_by_pread(src, src_size, e->compression, buf, n, got))
        return FC_OK;
    switch (e->compression) {
    case FC_COMPRESSION_NONE:
        *got = src_size < n ? src_size : n;
        memcpy(buf, src, *got);
        return FC_OK;
    case FC_COMPRESSION_LZ4: {
        if (src_size > LZ4_MAX_INPUT_SIZE || n > (size_t)INT32_MAX)
            return FC_ERR_LIMIT;
        int r = LZ4_decompress_safe_partial((const char *)src, buf, (int)src_size, (int)n, (int)n);
        if (r < 0)
            return FC_ERR_FORMAT;
        *got = (size_t)r;
        return FC_OK;
    }
    case FC_COMPRESSION_ZSTD:
        return zstd_head(src, src_size, buf, n, got);
    case FC_COMPRESSION_UNKNOWN:
        break;
    }
    return FC_ERR_UNSUPPORTED;
}

/* ZSTD's part of fc_entry_find: decompresses into WINDOW, searching what arrives; when the
 * window is full, only the bytes that may begin the key (or a key waiting for the bytes after
 * it) are kept at its start. */
static fc_status zstd_find(const uint8_t *src, size_t src_size, uint64_t limit, const uint8_t *key, size_t key_len,
                           size_t after, uint8_t *window, size_t size, const uint8_t **hit, size_t *avail)
{
    ZSTD_DCtx *dctx = thread_dctx();
    if (!dctx)
        return FC_ERR_NOMEM;
    ZSTD_inBuffer in = {src, src_size, 0};
    size_t filled = 0, searched = 0; /* window[0..searched) holds no key start */
    uint64_t total = 0;
    for (;;) {
        ZSTD_outBuffer ob = {window, size, filled};
        size_t in_before = in.pos, r = ZSTD_decompressStream(dctx, &ob, &in);
        if (ZSTD_isError(r))
            return FC_ERR_FORMAT;
        total += ob.pos - filled;
        if (total > limit)
            return FC_ERR_LIMIT;
        /* The frame's end, or the input's before it (a frame cut short), or no progress. */
        bool cut = r != 0 && ((in.pos == in.size && ob.pos < ob.size) || (ob.pos == filled && in.pos == in_before));
        bool ended = r == 0 || cut;
        filled = ob.pos;
        const uint8_t *h = filled > searched ? memmem(window + searched, filled - searched, key, key_len) : NULL;
        if (h) {
            size_t at = (size_t)(h - window);
            if (filled - at >= key_len + after || ended) {
                *hit = h;
                *avail = filled - at;
                return FC_OK;
            }
            /* The bytes after the key have not all come: the key moves to the start. */
            memmove(window, h, filled - at);
            filled -= at;
            searched = 0;
            continue;
        }
        if (ended)
            return cut ? FC_ERR_FORMAT : FC_OK;
        searched = filled >= key_len ? filled - (key_len - 1) : 0;
        if (filled == size) { /* full: the last KEY_LEN - 1 bytes may begin a key */
            memmove(window, window + searched, filled - searched);
            filled -= searched;
            searched = 0;
        }
    }
}

fc_status fc_entry_find(const fc_object *obj, const fc_entry *e, const fc_options *opts, const void *key,
                        size_t key_len, size_t after, uint8_t *window, size_t size, const uint8_t **hit,
                        size_t *avail)
{
    *hit = NULL;
    *avail = 0;
    if (!obj->image)
        return FC_ERR_UNSUPPORTED;
    if (key_len == 0 || after > SIZE_MAX / 4 - key_len || size < 2 * (key_len + after))
        return FC_ERR_INVALID;
    const uint8_t *src;
    fc_status st = fc_entry_stored(obj, e, &src);
    if (st != FC_OK)
        return st;
    size_t src_size = (size_t)e->stored_size;
    if (e->compression == FC_COMPRESSION_NONE) {
        *hit = memmem(src, src_size, key, key_len);
        *avail = *hit ? src_size - (size_t)(*hit - src) : 0;
        st = FC_OK;
    } else if (e->compression == FC_COMPRESSION_ZSTD) {
        fc_options defaults;
        if (!(opts = fc_options_resolve(opts, &defaults)))
            return FC_ERR_INVALID;
        /* A size declared past the limit is refused unread, as fc_decompress_buffer refuses it
         * (review 6: a bomb declaring one was otherwise inflated up to the limit). */
        unsigned long long said = ZSTD_getFrameContentSize(src, src_size);
        if (e->uncompressed_size > opts->max_decompressed_size ||
            (said != ZSTD_CONTENTSIZE_UNKNOWN && said != ZSTD_CONTENTSIZE_ERROR && said > opts->max_decompressed_size))
            return FC_ERR_LIMIT;
        st = zstd_find(src, src_size, opts->max_decompressed_size, key, key_len, after, window, size, hit, avail);
    } else {
        return FC_ERR_UNSUPPORTED;
    }
    if (obj->image_reclaimable && fc_file_map_range_changed(src, src_size))
        st = FC_ERR_IO; /* the file was cut short meanwhile: zeros were read (file_map.h) */
    if (st != FC_OK)
        *hit = NULL, *avail = 0;
    return st;
}
