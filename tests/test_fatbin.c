/* test_fatbin.c - container and entry decoding, on nvcc 13.0 fixtures and damaged copies. */
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "tap.h"
#include "testutil.h"

static fc_object *decode(const unsigned char *buf, size_t size, fc_status *st)
{
    fc_object *o = NULL;
    *st = fc_decode_fatbin(&o, buf, size, 0, NULL);
    return o;
}

/* Names of all entries, "sm_90a compute_100f ...", for exact comparisons. */
static const char *arch_names(const fc_object *o)
{
    static char out[2048];
    out[0] = '\0';
    for (size_t i = 0; i < o->n_containers; i++)
        for (size_t j = 0; j < o->containers[i].n_entries; j++) {
            char name[32];
            if (out[0])
                strcat(out, " ");
            strcat(out, fc_entry_arch_name(name, sizeof name, &o->containers[i].entries[j]));
        }
    return out;
}

static void test_all_archs(void)
{
    size_t n;
    unsigned char *buf = read_fixture("all_archs.fatbin", &n);
    fc_status st;
    fc_object *o = decode(buf, n, &st);
    is_u64(st, FC_OK, "all_archs: decodes");
    is_u64(o->n_containers, 1, "all_archs: one container");
    is_u64(o->containers[0].size, n, "all_archs: the container is the whole file");
    is_str(arch_names(o), "sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_100 sm_103 sm_110 sm_120 sm_121",
           "all_archs: every architecture nvcc 13.0 knows, in order");
    const fc_entry *e = o->containers[0].entries;
    is_u64(e[0].offset, 16, "all_archs: first entry right after the container header");
    is_u64(e[0].header_size, 64, "all_archs: sm_75 entry header is 64 bytes");
    is_u64(e[0].payload_offset, 80, "all_archs: payload after the header");
    is_u64(e[0].payload_size, 6440, "all_archs: sm_75 payload size");
    is_u64(e[7].header_size, 112, "all_archs: sm_100 entry header is 112 bytes");
    ok(!e[7].options, "all_archs: the binary block of sm_100+ cubins is not taken for options");
    int all = 1;
    for (size_t i = 0; i < o->containers[0].n_entries; i++)
        all &= e[i].kind == FC_IMAGE_CUBIN && e[i].version_major == 1 && e[i].version_minor == 8 &&
               e[i].compression == FC_COMPRESSION_NONE && !e[i].debug && e[i].variant == FC_VARIANT_NONE;
    ok(all, "all_archs: every entry an uncompressed cubin with code version 1.8");
    fc_object_free(o);
    free(buf);
}

static void test_variants(void)
{
    size_t n;
    unsigned char *buf = read_fixture("variants.fatbin", &n);
    fc_status st;
    fc_object *o = decode(buf, n, &st);
    is_u64(st, FC_OK, "variants: decodes");
    is_str(arch_names(o),
           "compute_90a sm_90a sm_100a sm_103a sm_110a sm_120a sm_121a compute_100f sm_100f sm_103f "
           "sm_110f compute_120f sm_120f sm_121f",
           "variants: a and f suffixes of cubins and PTX");
    const fc_entry *e = o->containers[0].entries;
    char name[32];
    is_str(fc_entry_cuobjdump_arch(name, sizeof name, &e[8]), "sm_100", "variants: cuobjdump drops f for cubins");
    is_str(fc_entry_cuobjdump_arch(name, sizeof name, &e[7]), "sm_100f", "variants: cuobjdump keeps f for PTX");
    is_str(fc_entry_cuobjdump_arch(name, sizeof name, &e[1]), "sm_90a", "variants: cuobjdump keeps a");
    is_str(fc_entry_cuobjdump_arch(name, sizeof name, &e[0]), "sm_90a", "variants: PTX is named sm_, not compute_");
    fc_object_free(o);
    free(buf);
}

static void test_compression(void)
{
    static const struct {
        const char *file;
        fc_compression cubin, ptx;
        uint64_t cubin_stored, ptx_stored;
    } cases[] = {
        {"compress_none.fatbin", FC_COMPRESSION_NONE, FC_COMPRESSION_NONE, 7880, 2512},
        {"compress_default.fatbin", FC_COMPRESSION_NONE, FC_COMPRESSION_ZSTD, 7880, 541},
        {"compress_balance.fatbin", FC_COMPRESSION_NONE, FC_COMPRESSION_ZSTD, 7880, 541},
        {"compress_speed.fatbin", FC_COMPRESSION_NONE, FC_COMPRESSION_LZ4, 7880, 783},
        {"compress_size.fatbin", FC_COMPRESSION_ZSTD, FC_COMPRESSION_ZSTD, 1261, 534},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n;
        unsigned char *buf = read_fixture(cases[i].file, &n);
        fc_status st;
        fc_object *o = decode(buf, n, &st);
        const fc_entry *e = o->containers[0].entries;
        ok(st == FC_OK && o->containers[0].n_entries == 2, "%s: decodes to two entries", cases[i].file);
        is_u64(e[0].compression, cases[i].cubin, "%s: cubin compression %s", cases[i].file,
               fc_compression_name(cases[i].cubin));
        is_u64(e[1].compression, cases[i].ptx, "%s: PTX compression %s", cases[i].file,
               fc_compression_name(cases[i].ptx));
        is_u64(e[0].stored_size, cases[i].cubin_stored, "%s: cubin stored size", cases[i].file);
        is_u64(e[1].stored_size, cases[i].ptx_stored, "%s: PTX stored size", cases[i].file);
        is_u64(e[0].uncompressed_size, 7880, "%s: cubin size", cases[i].file);
        if (e[1].compression != FC_COMPRESSION_NONE)
            is_u64(e[1].uncompressed_size, 2508, "%s: PTX declared size", cases[i].file);
        is_u64(e[1].version_major * 10 + e[1].version_minor, 90, "%s: PTX ISA 9.0", cases[i].file);
        is_u64(e[0].cubin_header, FC_CUBIN_HEADER_OK, "%s: the cubin's first bytes are what the driver takes",
               cases[i].file);
        fc_object_free(o);
        free(buf);
    }
}

static void test_debug(void)
{
    size_t n;
    unsigned char *buf = read_fixture("debug.fatbin", &n);
    fc_status st;
    fc_object *o = decode(buf, n, &st);
    const fc_entry *e = o->containers[0].entries;
    is_u64(st, FC_OK, "debug: decodes");
    ok(e[0].debug && e[1].debug, "debug: both entries flagged as debug builds");
    is_str(e[0].identifier, "kernels.cu", "debug: cubin identifier");
    is_str(e[1].identifier, "kernels.cu", "debug: PTX identifier");
    is_str(e[1].options, "-g --dont-merge-basicblocks --return-at-end", "debug: PTX ptxas options");
    is_u64(e[1].header_size, 136, "debug: PTX entry header of 136 bytes");
    fc_object_free(o);
    free(buf);
}

/* Two containers with zero padding between them, as in .nv_fatbin sections. */
static void test_padding(void)
{
    size_t n;
    unsigned char *one = read_fixture("ptx_only.fatbin", &n);
    unsigned char *buf = calloc(1, 2 * n + 24);
    memcpy(buf, one, n);
    memcpy(buf + n + 8, one, n);
    fc_status st;
    fc_object *o = decode(buf, 2 * n + 24, &st);
    is_u64(st, FC_OK, "padding: zero bytes between and after containers are skipped");
    is_u64(o->n_containers, 2, "padding: two containers");
    is_u64(o->containers[1].offset, n + 8, "padding: second container's offset");
    fc_object_free(o);
    free(buf);
    free(one);
}

/* Damaged copies of all_archs.fatbin: each must give a clear error and no crash. */
static void test_damage(void)
{
    size_t n;
    unsigned char *orig = read_fixture("all_archs.fatbin", &n);
    unsigned char *buf = malloc(n);
    fc_status st;
    fc_object *o;
    const size_t e0 = 16; /* first entry header */

    static const struct {
        const char *what;
        size_t at;
        int width;        /* 4 or 8 */
        uint64_t value;
        const char *message;
    } cases[] = {
        {"bad magic", 0, 4, 0x12345678, "offset 0x0: no fat binary magic (found 0x12345678)"},
        {"container version 2", 4, 4, 0x00100002, "offset 0x0: container version 2 is not 1"},
        {"container past the end", 8, 8, UINT64_MAX, "offset 0x0: container of 18446744073709551615 bytes runs past the end (111064 bytes left)"},
        {"entry header below minimum", e0 + 4, 4, 8, "offset 0x10: entry header size 8 is below the minimum 64"},
        {"entry header past container", e0 + 4, 4, 0x7fffffff, "offset 0x10: entry header of 2147483647 bytes runs past the container (111064 bytes left)"},
        {"payload overflowing 64 bits", e0 + 8, 8, UINT64_MAX - 10, "offset 0x10: entry payload of 18446744073709551605 bytes runs past the container (111000 bytes left)"},
        {"identifier past header", e0 + 32, 8, ((uint64_t)5 << 32) | 62, "offset 0x10: identifier lies outside the entry header"},
        {"options past header", e0 + 20, 4, 60, "offset 0x10: options lie outside the entry header"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(buf, orig, n);
        if (cases[i].width == 4)
            put32(buf + cases[i].at, (uint32_t)cases[i].value);
        else
            put64(buf + cases[i].at, cases[i].value);
        o = decode(buf, n, &st);
        ok(st < 0 && o && o->error, "damage: %s is an error", cases[i].what);
        is_str(o ? o->error : NULL, cases[i].message, "damage: %s message", cases[i].what);
        fc_object_free(o);
    }

    /* A compressed size past the payload: set zstd on the first cubin, then the size. */
    memcpy(buf, orig, n);
    put64(buf + e0 + 40, 0x8011);
    put32(buf + e0 + 16, 1000000);
    o = decode(buf, n, &st);
    is_str(o->error, "offset 0x10: compressed size 1000000 is larger than the entry's 6440 payload bytes",
           "damage: compressed size past the payload");
    fc_object_free(o);

    /* Truncation at every structural boundary and a few bytes either side. */
    int clean = 1;
    size_t cuts[] = {0, 1, 8, 15, 16, 17, 40, 79, 80, 81, 1000, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        o = decode(orig, cuts[i], &st);
        clean &= cuts[i] == 0 ? st == FC_OK && o->n_containers == 0 : st == FC_ERR_FORMAT && o->error != NULL;
        fc_object_free(o);
    }
    ok(clean, "damage: every truncation is a format error (and an empty buffer holds nothing)");

    /* Stray bytes at the end of a container's declared size. */
    unsigned char *big = calloc(1, n + 8);
    memcpy(big, orig, n);
    put64(big + 8, n - 16 + 4);
    memset(big + n, 0xab, 4);
    o = decode(big, n + 8, &st);
    is_str(o->error, "offset 0x1b1e8: 4 stray bytes after the last entry", "damage: stray bytes named");
    is_u64(o->containers[0].n_entries, 12, "damage: the entries before the problem are kept");
    fc_object_free(o);
    free(big);

    /* An unknown kind is reported as such, not treated as an error. */
    memcpy(buf, orig, n);
    buf[e0] = 0x40;
    o = decode(buf, n, &st);
    ok(st == FC_OK && o->containers[0].entries[0].kind == FC_IMAGE_UNKNOWN &&
           o->containers[0].entries[0].raw_kind == 0x40,
       "damage: an unknown kind decodes as unknown");
    fc_object_free(o);

    /* Limits set by the caller. */
    fc_options opts;
    fc_options_init(&opts);
    opts.max_entries = 5;
    st = fc_decode_fatbin(&o, orig, n, 0, &opts);
    ok(st == FC_ERR_LIMIT && o->containers[0].n_entries == 5, "limits: max_entries stops decoding");
    is_str(o->error, "more than 5 entries", "limits: message");
    fc_object_free(o);

    /* All zeros: padding only, no containers. */
    unsigned char zeros[256] = {0};
    o = decode(zeros, sizeof zeros, &st);
    ok(st == FC_OK && o->n_containers == 0, "zeros: nothing, and no error");
    fc_object_free(o);
    fc_object_free(NULL);
    ok(1, "fc_object_free accepts NULL");

    free(buf);
    free(orig);
}

/* The cubin's first bytes against its entry header (review of 2026-12-03, F3: the H200's
 * driver answered 300 for an sm_80 cubin under an sm_90 header, 200 and 209 for an ELF file
 * under the zstd and LZ4 flags). */
static void test_cubin_heads(void)
{
    static const char *const real[] = {"all_archs.fatbin", "variants.fatbin", "debug.fatbin", "compress_size.fatbin",
                                       "compress_speed_all.fatbin"};
    for (size_t i = 0; i < sizeof real / sizeof *real; i++) {
        size_t n, bad = 0, cubins = 0;
        unsigned char *buf = read_fixture(real[i], &n);
        fc_status st;
        fc_object *o = decode(buf, n, &st);
        for (size_t c = 0; o && c < o->n_containers; c++)
            for (size_t k = 0; k < o->containers[c].n_entries; k++) {
                const fc_entry *e = &o->containers[c].entries[k];
                cubins += e->kind == FC_IMAGE_CUBIN;
                bad += e->kind == FC_IMAGE_CUBIN && e->cubin_header != FC_CUBIN_HEADER_OK;
            }
        ok(st == FC_OK && cubins && !bad, "%s: all %zu cubins' first bytes agree with their entries", real[i], cubins);
        fc_object_free(o);
        free(buf);
    }
    static const struct {
        const char *file, *what;
        size_t at;          /* from the first entry header */
        uint64_t value;     /* written little-endian over WIDTH bytes */
        unsigned width;
        fc_cubin_header want;
    } cases[] = {
        {"compress_none.fatbin", "an sm_90 cubin under an sm_80 header", 28, 80, 4, FC_CUBIN_HEADER_OTHER_SM},
        {"compress_none.fatbin", "an ELF file under the zstd flag", 40, 0x8011, 8, FC_CUBIN_HEADER_NOT_COMPRESSED},
        {"compress_none.fatbin", "an ELF file under the LZ4 flag", 40, 0x2011, 8, FC_CUBIN_HEADER_NOT_COMPRESSED},
        {"compress_size.fatbin", "zstd-flagged bytes without a frame's magic", 64, 0x29, 1, FC_CUBIN_HEADER_NOT_COMPRESSED},
        {"compress_none.fatbin", "a broken ELF magic", 65, 'X', 1, FC_CUBIN_HEADER_DAMAGED},
        /* LZ4: the ELF header inflated from the stored bytes at hand (a token, then literals) */
        {"compress_speed_all.fatbin", "an LZ4 sm_90 cubin under an sm_80 header", 28, 80, 4, FC_CUBIN_HEADER_OTHER_SM},
        {"compress_speed_all.fatbin", "an LZ4 cubin whose inflated magic is broken", 66, 'X', 1,
         FC_CUBIN_HEADER_DAMAGED},
        {"compress_speed_all.fatbin", "an LZ4 cubin whose inflated class is 32-bit", 69, 1, 1, FC_CUBIN_HEADER_DAMAGED},
        /* ELF identity: the H200's driver refused these ABI-8 cubins with 200 and loaded the
         * one with EI_VERSION 0 (review of 2026-12-03; bench/cubin_survey for the pairs) */
        {"compress_none.fatbin", "a cubin marked big-endian (EI_DATA 2)", 64 + 5, 2, 1, FC_CUBIN_HEADER_DAMAGED},
        {"compress_none.fatbin", "an ABI-8 cubin with OS/ABI 0", 64 + 7, 0, 1, FC_CUBIN_HEADER_DAMAGED},
        {"compress_none.fatbin", "an ABI-8 cubin with OS/ABI 51", 64 + 7, 51, 1, FC_CUBIN_HEADER_DAMAGED},
        {"compress_none.fatbin", "an ABI-8 cubin with OS/ABI 41", 64 + 7, 41, 1, FC_CUBIN_HEADER_DAMAGED},
        {"compress_none.fatbin", "OS/ABI 65 with ABI version 7, a pair no toolchain writes", 64 + 8, 7, 1,
         FC_CUBIN_HEADER_DAMAGED},
        {"compress_none.fatbin", "EI_VERSION 0, which the driver takes", 64 + 6, 0, 1, FC_CUBIN_HEADER_OK},
        {"compress_speed_all.fatbin", "an LZ4 cubin whose inflated byte order is big-endian", 64 + 1 + 5, 2, 1,
         FC_CUBIN_HEADER_DAMAGED},
        /* entry flags a driver refused a cubin for: 0x4000 (200), 0x1000 (999) */
        {"compress_none.fatbin", "a cubin flagged 0x4000", 40, 0x4011, 8, FC_CUBIN_HEADER_DAMAGED},
        {"compress_none.fatbin", "a cubin flagged 0x1000", 40, 0x1011, 8, FC_CUBIN_HEADER_NOT_COMPRESSED},
        /* a declared size the image does not have: the zstd frame states its own (999 for 64
         * more or fewer); no LZ4 cubin is under 64 bytes (209 for 0) */
        {"compress_size.fatbin", "a zstd cubin declared 64 bytes larger than its frame", 56, 0x40, 0,
         FC_CUBIN_HEADER_NOT_COMPRESSED},
        {"compress_size.fatbin", "a zstd cubin declared 64 bytes smaller than its frame", 56, (uint64_t)-0x40, 0,
         FC_CUBIN_HEADER_NOT_COMPRESSED},
        {"compress_speed_all.fatbin", "an LZ4 cubin declared 0 bytes", 56, 0, 8, FC_CUBIN_HEADER_NOT_COMPRESSED},
        {"compress_speed_all.fatbin", "an LZ4 cubin declared 64 bytes larger: not seen without inflating it whole", 56,
         0x40, 0, FC_CUBIN_HEADER_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n;
        unsigned char *buf = read_fixture(cases[i].file, &n);
        unsigned char *h = buf + 16; /* the first entry header */
        if (cases[i].width == 8) { /* flags: a compressed size and declared size beside them */
            uint32_t payload = (uint32_t)(h[8] | h[9] << 8 | h[10] << 16 | (uint32_t)h[11] << 24);
            for (unsigned b = 0; b < 4; b++)
                h[16 + b] = (unsigned char)(payload >> 8 * b), h[56 + b] = (unsigned char)(payload >> 8 * b);
        }
        if (cases[i].width == 0) { /* added to the u64 there */
            uint64_t v = 0;
            for (unsigned b = 0; b < 8; b++)
                v |= (uint64_t)h[cases[i].at + b] << 8 * b;
            v += cases[i].value;
            for (unsigned b = 0; b < 8; b++)
                h[cases[i].at + b] = (unsigned char)(v >> 8 * b);
        }
        for (unsigned b = 0; b < cases[i].width; b++)
            h[cases[i].at + b] = (unsigned char)(cases[i].value >> 8 * b);
        fc_status st;
        fc_object *o = decode(buf, n, &st);
        ok(st == FC_OK && o && o->containers[0].entries[0].cubin_header == cases[i].want, "%s: %s", cases[i].file,
           cases[i].what);
        fc_object_free(o);
        free(buf);
    }
}

/* Entry flag bits no toolchain writes and no driver was seen refusing: the entry is decoded,
 * and so is the rest, but the object is not judged (its error, FC_ERR_UNSUPPORTED). */
static void test_unknown_flags(void)
{
    size_t n;
    unsigned char *buf = read_fixture("compress_none.fatbin", &n);
    buf[16 + 40 + 2] |= 0x40; /* 0x400000: the H200 loaded it; other drivers were not asked */
    fc_status st;
    fc_object *o = decode(buf, n, &st);
    size_t entries = 0;
    for (size_t c = 0; o && c < o->n_containers; c++)
        entries += o->containers[c].n_entries;
    ok(st == FC_OK && o && o->status == FC_ERR_UNSUPPORTED && o->error &&
           strstr(o->error, "bits 0x400000 that no CUDA toolchain is known to write"),
       "an entry flagged 0x400000 is not judged: %s", o && o->error ? o->error : "(no error)");
    buf[16 + 40 + 2] &= (unsigned char)~0x40;
    fc_object *whole = decode(buf, n, &st);
    size_t want = 0;
    for (size_t c = 0; whole && c < whole->n_containers; c++)
        want += whole->containers[c].n_entries;
    ok(want > 1 && entries == want, "decoding goes on past it: %zu of %zu entries", entries, want);
    fc_object_free(whole);
    fc_object_free(o);
    free(buf);
}

int main(void)
{
    test_all_archs();
    test_variants();
    test_compression();
    test_debug();
    test_padding();
    test_damage();
    test_cubin_heads();
    test_unknown_flags();
    return tap_done();
}
