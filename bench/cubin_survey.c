/* cubin_survey.c - what real files hold where the driver's answers are known only for a few
 * crafted cases: every cubin's ELF identity (EI_DATA, EI_VERSION, EI_OSABI, EI_ABIVERSION),
 * every entry's flag bits by kind, and how a compressed image's declared size compares with
 * its zstd frame's content size and (with --inflate) with what it inflates to. Counts are
 * printed per LABEL, so that one run per CUDA release shows what each release's toolchain
 * writes (docs/matching.md rests rule 10's identity and flag checks on it).
 *
 *   build/bench/cubin_survey [--inflate] LABEL PATH...
 */
#include <fatcheck.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "decode.h"
#include "elf_header.h"

#define MAX_KEYS 4096

typedef struct tally {
    char key[96];
    unsigned long n;
} tally;

typedef struct survey {
    bool inflate;
    tally t[MAX_KEYS];
    size_t n;
    unsigned long objects, errors;
} survey;

static void count(survey *s, const char *key)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->t[i].key, key) == 0) {
            s->t[i].n++;
            return;
        }
    if (s->n == MAX_KEYS)
        return;
    snprintf(s->t[s->n].key, sizeof s->t[s->n].key, "%s", key);
    s->t[s->n++].n = 1;
}

static const char *kind(const fc_entry *e)
{
    return fc_image_kind_name(e->kind);
}

/* The ELF identity of a cubin entry, from its first 64 bytes (inflated as needed). */
static void ident(survey *s, const fc_object *o, const fc_entry *e)
{
    uint8_t h[64];
    size_t got = 0;
    char key[96];
    if (e->obfuscated || fc_entry_head(o, e, h, sizeof h, &got) != FC_OK || got < 52) {
        count(s, "ident unreadable");
        return;
    }
    snprintf(key, sizeof key, "ident data=%u version=%u osabi=%u abiversion=%u e_version=%u", h[5], h[6], h[7], h[8],
             (unsigned)h[20] | (unsigned)h[21] << 8 | (unsigned)h[22] << 16 | (unsigned)h[23] << 24);
    count(s, key);
    uint32_t sm = fc_cubin_sm_of(h[8], (uint32_t)h[48] | (uint32_t)h[49] << 8 | (uint32_t)h[50] << 16 |
                                           (uint32_t)h[51] << 24);
    snprintf(key, sizeof key, "osabi=%u abiversion=%u family-%s", h[7], h[8], sm >= 100 ? "sm_100+" : "below");
    count(s, key);
    /* The entry header's code version beside the ELF ABI: whether one dates the other. */
    snprintf(key, sizeof key, "entry code version %u.%u abiversion=%u", e->version_major, e->version_minor, h[8]);
    count(s, key);
}

static void sizes(survey *s, const fc_object *o, const fc_entry *e)
{
    const uint8_t *src;
    char key[96];
    if (e->obfuscated || fc_entry_stored(o, e, &src) != FC_OK)
        return;
    if (e->compression == FC_COMPRESSION_ZSTD) {
        unsigned long long fcs = ZSTD_getFrameContentSize(src, e->stored_size);
        snprintf(key, sizeof key, "%s zstd frame content size %s", kind(e),
                 fcs == ZSTD_CONTENTSIZE_UNKNOWN ? "absent"
                 : fcs == ZSTD_CONTENTSIZE_ERROR ? "unreadable"
                 : fcs == e->uncompressed_size   ? "= declared"
                                                 : "!= declared");
        count(s, key);
    }
    if (!s->inflate || e->compression == FC_COMPRESSION_NONE)
        return;
    fc_buffer scratch = {0};
    const uint8_t *img;
    size_t len;
    fc_status st = fc_entry_image(o, e, NULL, &scratch, &img, &len);
    snprintf(key, sizeof key, "%s %s inflates to %s", kind(e), e->compression == FC_COMPRESSION_LZ4 ? "lz4" : "zstd",
             st != FC_OK ? "nothing" : len == e->uncompressed_size ? "the declared size" : "another size");
    count(s, key);
    fc_buffer_free(&scratch);
}

static int on_object(void *ctx, const fc_object *o)
{
    survey *s = ctx;
    char key[96];
    s->objects++;
    for (size_t c = 0; c < o->n_containers; c++)
        for (size_t i = 0; i < o->containers[c].n_entries; i++) {
            const fc_entry *e = &o->containers[c].entries[i];
            snprintf(key, sizeof key, "%s entries", kind(e));
            count(s, key);
            snprintf(key, sizeof key, "%s flags 0x%llx", kind(e), (unsigned long long)e->flags);
            count(s, key);
            for (int b = 0; b < 64; b++)
                if (e->flags >> b & 1) {
                    snprintf(key, sizeof key, "%s bit 0x%llx", kind(e), 1ull << b);
                    count(s, key);
                }
            if ((e->flags & FC_FLAG_FAMILY) && e->arch < 100) {
                snprintf(key, sizeof key, "%s family flag below sm_100 (sm_%u)", kind(e), e->arch);
                count(s, key);
            }
            if (e->kind == FC_IMAGE_CUBIN)
                ident(s, o, e);
            sizes(s, o, e);
        }
    return 0;
}

static int on_error(void *ctx, const fc_error *err)
{
    (void)err;
    ((survey *)ctx)->errors++;
    return 0;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const tally *)a)->key, ((const tally *)b)->key);
}

int main(int argc, char **argv)
{
    int a = 1;
    static survey s;
    if (a < argc && strcmp(argv[a], "--inflate") == 0)
        s.inflate = true, a++;
    if (argc - a < 2) {
        fprintf(stderr, "usage: cubin_survey [--inflate] LABEL PATH...\n");
        return 2;
    }
    const char *label = argv[a++];
    fc_options opts;
    fc_options_init(&opts);
    opts.embedded = FC_EMBEDDED_ALL; /* containers kept as data count as real files' too */
    for (; a < argc; a++)
        fc_scan(argv[a], &opts, on_object, on_error, &s);
    qsort(s.t, s.n, sizeof s.t[0], by_key);
    printf("%s: %lu objects, %lu errors\n", label, s.objects, s.errors);
    for (size_t i = 0; i < s.n; i++)
        printf("%s\t%lu\t%s\n", label, s.t[i].n, s.t[i].key);
    return 0;
}
