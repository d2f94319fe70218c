/* tkinfo.c - the CUDA release of the tool that wrote a cubin, from its toolkit note, and the
 * virtual architecture ptxas compiled it from, from its compute note.
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

/* Where KEY (K bytes) first lies in cubin E's image, with AFTER bytes after it where the image
 * holds them, as fc_entry_find finds it (an LZ4 image: in its head, or whole); false when the
 * image could not be read. *HIT is NULL when it holds no KEY. */
static bool find_in(const fc_object *obj, const fc_entry *e, const fc_options *opts, const char *key, size_t k,
                    size_t after, fc_buffer *scratch, const uint8_t **hit, size_t *avail)
{
    *hit = NULL;
    *avail = 0;
    if (e->compression != FC_COMPRESSION_LZ4) {
        if (scratch->cap < FIND_WINDOW && !fc_buffer_reserve(scratch, FIND_WINDOW))
            return false;
        return fc_entry_find(obj, e, opts, key, k, after, scratch->p, FIND_WINDOW, hit, avail) == FC_OK;
    }
    const uint8_t *img;
    size_t n;
    if (fc_entry_image(obj, e, opts, scratch, &img, &n) != FC_OK)
        return false;
    if ((*hit = n >= k ? memmem(img, n, key, k) : NULL))
        *avail = n - (size_t)(*hit - img);
    return true;
}

int fc_cubin_release(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_buffer *scratch, bool *read)
{
    const char *key = release_key;
    const size_t k = sizeof release_key - 1;
    const size_t digits = 64; /* "13.0, V13.0.88", or longer made up */
    *read = false;
    if (e->compression != FC_COMPRESSION_LZ4) {
        const uint8_t *hit;
        size_t avail;
        if (!find_in(obj, e, opts, key, k, digits, scratch, &hit, &avail))
            return 0;
        *read = true;
        return hit && avail > k + 3 ? release_at(hit, avail, k) : 0; /* as first_release */
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

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The first toolkit note, from its type (2000) and name: six 32-bit fields follow (the tool's
 * name and its release are offsets 2 and 3 into the strings after them), then the strings:
 * "\0ptxas\0Cuda compilation tools, release 13.0, V13.0.88\0...". A cubin nvlink linked
 * starts with nvlink's note and goes on with those of the cubins it linked. */
static const char tkinfo_note[] = "\xd0\x07\0\0NVIDIA Corp";
#define TKINFO_STRINGS 256u /* of the strings, what is looked at */
/* The compute note (type 1000, a descriptor of 8 bytes): version 2, then the virtual
 * architecture the cubin was compiled from, 16 bits each (75 for compute_75; 90 for compute_90
 * and compute_90a alike). */
static const char cuinfo_note[] = "\x0c\0\0\0\x08\0\0\0\xe8\x03\0\0NVIDIA Corp\0\x02";

bool fc_cubin_ptxas(const fc_object *obj, const fc_entry *e, const fc_options *opts, int *release,
                    unsigned *virtual_arch)
{
    *release = 0;
    *virtual_arch = 0;
    fc_buffer scratch = {0};
    const uint8_t *hit;
    size_t avail;
    const size_t k = sizeof tkinfo_note; /* its NUL included */
    if (find_in(obj, e, opts, tkinfo_note, k, 24 + TKINFO_STRINGS, &scratch, &hit, &avail) && hit &&
        avail >= k + 24) {
        const uint8_t *strings = hit + k + 24;
        size_t n = avail - k - 24 < TKINFO_STRINGS ? avail - k - 24 : TKINFO_STRINGS;
        uint32_t tool = le32(hit + k + 8), version = le32(hit + k + 12);
        const size_t rk = sizeof release_key - 1;
        if (tool < n && n - tool >= 6 && memcmp(strings + tool, "ptxas", 6) == 0 && version < n &&
            n - version > rk + 3 && memcmp(strings + version, release_key, rk) == 0)
            *release = release_at(strings + version, n - version, rk);
    }
    const size_t c = sizeof cuinfo_note; /* the version's second byte, 0, is the NUL */
    if (*release && find_in(obj, e, opts, cuinfo_note, c, 2, &scratch, &hit, &avail) && hit && avail >= c + 2)
        *virtual_arch = (unsigned)hit[c] | (unsigned)hit[c + 1] << 8;
    fc_buffer_free(&scratch);
    return *release && *virtual_arch;
}
