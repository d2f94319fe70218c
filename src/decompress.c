/* decompress.c - zstd and LZ4 behind one call whose output never exceeds a caller's limit. */
#include <lz4.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "internal.h"

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

static fc_status zstd_stream(const void *src, size_t src_size, uint64_t guess, uint64_t limit,
                             void **out, size_t *out_size)
{
    ZSTD_DCtx *dctx = thread_dctx();
    if (!dctx)
        return FC_ERR_NOMEM;
    /* Start from the declared size, but never allocate far beyond what the input could
     * plausibly expand to before the stream itself proves it. */
    uint64_t first = (uint64_t)src_size * 16 + 65536;
    size_t cap = (size_t)(guess && guess < first ? guess : first < limit ? first : limit);
    if (cap == 0)
        cap = 1;
    fc_status st = FC_OK;
    uint8_t *buf = malloc(cap);
    ZSTD_inBuffer in = {src, src_size, 0};
    ZSTD_outBuffer ob = {buf, cap, 0};
    if (!buf) {
        st = FC_ERR_NOMEM;
        goto cleanup;
    }
    for (;;) {
        size_t r = ZSTD_decompressStream(dctx, &ob, &in);
        if (ZSTD_isError(r)) {
            st = FC_ERR_FORMAT;
            goto cleanup;
        }
        if (r == 0) /* frame complete */
            break;
        if (in.pos == in.size && ob.pos < ob.size) { /* input ended inside the frame */
            st = FC_ERR_FORMAT;
            goto cleanup;
        }
        if (ob.pos == ob.size) {
            if (cap >= limit) {
                st = FC_ERR_LIMIT;
                goto cleanup;
            }
            size_t ncap = cap > limit / 2 ? (size_t)limit : cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                st = FC_ERR_NOMEM;
                goto cleanup;
            }
            buf = nb;
            cap = ncap;
            ob.dst = buf;
            ob.size = cap;
        }
    }
    *out = buf;
    *out_size = ob.pos;
    buf = NULL;
cleanup:
    free(buf);
    return st;
}

static fc_status lz4_block(const void *src, size_t src_size, uint64_t guess, uint64_t limit,
                           void **out, size_t *out_size)
{
    if (src_size > LZ4_MAX_INPUT_SIZE)
        return FC_ERR_LIMIT;
    /* A raw LZ4 block does not record its size: start at the declared size and grow, since
     * "too small" and "corrupt" look the same to LZ4_decompress_safe. */
    uint64_t most = (uint64_t)src_size * 255 + 16;
    uint64_t cap = guess && guess < most ? guess : (guess ? most : (uint64_t)src_size * 4);
    if (cap > limit)
        cap = limit;
    if (cap == 0)
        cap = 1;
    for (;;) {
        if (cap > (uint64_t)INT32_MAX)
            return FC_ERR_LIMIT;
        char *buf = malloc((size_t)cap);
        if (!buf)
            return FC_ERR_NOMEM;
        int n = LZ4_decompress_safe(src, buf, (int)src_size, (int)cap);
        if (n >= 0) {
            *out = buf;
            *out_size = (size_t)n;
            return FC_OK;
        }
        free(buf);
        /* LZ4's worst case ratio is 255:1; past that the stream is corrupt, not large. */
        if (cap >= limit || cap >= (uint64_t)src_size * 255 + 16)
            return cap >= limit ? FC_ERR_LIMIT : FC_ERR_FORMAT;
        cap = cap > limit / 2 ? limit : cap * 2;
    }
}

fc_status fc_decompress(fc_compression m, const void *src, size_t src_size,
                        uint64_t declared, uint64_t limit, void **out, size_t *out_size)
{
    if (!out || !out_size || (!src && src_size))
        return FC_ERR_INVALID;
    *out = NULL;
    *out_size = 0;
    if (declared > limit)
        return FC_ERR_LIMIT;
    switch (m) {
    case FC_COMPRESSION_NONE:
        if (src_size > limit)
            return FC_ERR_LIMIT;
        *out = malloc(src_size ? src_size : 1);
        if (!*out)
            return FC_ERR_NOMEM;
        if (src_size)
            memcpy(*out, src, src_size);
        *out_size = src_size;
        return FC_OK;
    case FC_COMPRESSION_ZSTD: {
        /* The frame's own content size is as untrusted as the entry's. */
        unsigned long long fcs = ZSTD_getFrameContentSize(src, src_size);
        if (fcs == ZSTD_CONTENTSIZE_ERROR)
            return FC_ERR_FORMAT;
        if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs > limit)
            return FC_ERR_LIMIT;
        uint64_t guess = declared ? declared : (fcs != ZSTD_CONTENTSIZE_UNKNOWN ? fcs : 0);
        return zstd_stream(src, src_size, guess, limit, out, out_size);
    }
    case FC_COMPRESSION_LZ4:
        return lz4_block(src, src_size, declared, limit, out, out_size);
    case FC_COMPRESSION_UNKNOWN:
        break;
    }
    return FC_ERR_UNSUPPORTED;
}
