/* tkinfo.c - the CUDA release of the tool that wrote a cubin, from its toolkit note.
 *
 * A cubin's ".note.nv.tkinfo" names the tool, its release and its options:
 * "ptxas\0Cuda compilation tools, release 13.0, V13.0.88\0Build cuda_13.0.r13.0/...\0-arch
 * sm_75" (ptxas of CUDA 12 and later; 11.8's cubins have no such note). The note lies 5 to
 * 60% into a cubin, after its string and symbol tables (cuDNN's 7 MB cubins: at 468 KB;
 * CuPy's CUB module, 13.8 MB: at 1.4 MB), so it is found reading as little of the image as
 * finds it. */
#include <string.h>

#include "decode.h"
#include "fatcheck.h"

static const char release_key[] = "Cuda compilation tools, release ";
/* The same, written by ptxas: the tool's name ends just before it. */
static const char ptxas_key[] = "ptxas\0Cuda compilation tools, release ";

/* The release that P[0..n), which starts at KEY (K bytes), names: "13.0" is 13000. */
static int release_at(const uint8_t *p, size_t n, size_t k)
{
    unsigned major = 0, minor = 0;
    size_t j = k;
    while (j < n && p[j] >= '0' && p[j] <= '9' && major < 1000)
        major = major * 10 + (unsigned)(p[j++] - '0');
    if (j >= n || p[j++] != '.')
        return 0;
    while (j < n && p[j] >= '0' && p[j] <= '9' && minor < 1000)
        minor = minor * 10 + (unsigned)(p[j++] - '0');
    return major >= 9 && major < 100 && minor < 10 ? (int)(major * 1000 + minor * 10) : 0;
}

/* The release after the first KEY (K bytes) in P[0..n), or 0. */
static int first_release(const uint8_t *p, size_t n, const char *key, size_t k)
{
    const uint8_t *hit = n > k + 3 ? memmem(p, n - 3, key, k) : NULL;
    return hit ? release_at(hit, n - (size_t)(hit - p), k) : 0;
}

/* An LZ4 image, whose blocks cannot be decompressed up to a point, is read first as a head
 * (half its declared size, at most 1 MiB), whole only when the note is not there. */
#define FIND_WINDOW (256u << 10)

int fc_cubin_release(const fc_object *obj, const fc_entry *e, const fc_options *opts, bool ptxas_only,
                     fc_buffer *scratch, bool *read)
{
    const char *key = ptxas_only ? ptxas_key : release_key;
    const size_t k = ptxas_only ? sizeof ptxas_key - 1 : sizeof release_key - 1;
    const size_t digits = 64; /* "13.0, V13.0.88", or longer made up */
    *read = false;
    if (e->compression != FC_COMPRESSION_LZ4) {
        if (scratch->cap < FIND_WINDOW && !fc_buffer_reserve(scratch, FIND_WINDOW))
            return 0;
        const uint8_t *hit;
        size_t avail;
        if (fc_entry_find(obj, e, opts, key, k, digits, scratch->p, FIND_WINDOW, &hit, &avail) != FC_OK)
            return 0;
        *read = true;
        return hit ? release_at(hit, avail, k) : 0;
    }
    size_t head = e->uncompressed_size / 2 < (1u << 20) ? (size_t)(e->uncompressed_size / 2) : 1u << 20;
    if (head >= (256u << 10) && (scratch->cap >= head || fc_buffer_reserve(scratch, head))) {
        size_t got;
        const uint8_t *hit = NULL;
        if (fc_entry_head(obj, e, scratch->p, head, &got) == FC_OK && got == head)
            hit = memmem(scratch->p, got, key, k);
        if (hit && (size_t)(hit - scratch->p) + k + digits <= got) { /* its digits all there */
            *read = true;
            return release_at(hit, got - (size_t)(hit - scratch->p), k);
        }
    }
    const uint8_t *img;
    size_t n;
    *read = fc_entry_image(obj, e, opts, scratch, &img, &n) == FC_OK;
    return *read ? first_release(img, n, key, k) : 0;
}
