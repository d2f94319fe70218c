/* test_pe.c - the PE/COFF section table reader on hostile headers (every offset and size
 * past the end, long names outside the string table), and a large .nv_fatb walked on
 * several threads with the registration records' hints, against one thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fatcheck.h"
#include "pe.h"
#include "tap.h"
#include "testutil.h"

#define MiB (1u << 20)
#define IMAGE_BASE 0x180000000ull
#define LFANEW 0x80u
#define OPT_SIZE 240u /* PE32+ */
#define TABLE_AT (LFANEW + 4 + 20 + OPT_SIZE)

typedef struct section_spec {
    const char *name;       /* up to 8 characters, or "/N" */
    uint32_t rva, vsize, raw_at, raw_size, flags;
} section_spec;

/* A PE32+ image of SIZE bytes with the sections SPECS; STRTAB (LEN bytes), when given, is
 * placed at STRTAB_AT as the COFF string table (its size field included). */
static unsigned char *make_pe(size_t size, const section_spec *specs, size_t n, uint32_t strtab_at)
{
    unsigned char *f = calloc(1, size);
    f[0] = 'M';
    f[1] = 'Z';
    put32(f + 0x3c, LFANEW);
    memcpy(f + LFANEW, "PE\0\0", 4);
    unsigned char *coff = f + LFANEW + 4;
    put16(coff, 0x8664);
    put16(coff + 2, (uint16_t)n);
    put32(coff + 8, strtab_at); /* PointerToSymbolTable, with no symbols */
    put16(coff + 16, OPT_SIZE);
    put16(coff + 18, 0x2022);
    put16(coff + 20, 0x20b);
    put64(coff + 20 + 24, IMAGE_BASE);
    for (size_t i = 0; i < n; i++) {
        unsigned char *h = f + TABLE_AT + 40 * i;
        memcpy(h, specs[i].name, strlen(specs[i].name) < 8 ? strlen(specs[i].name) : 8);
        put32(h + 8, specs[i].vsize);
        put32(h + 12, specs[i].rva);
        put32(h + 16, specs[i].raw_size);
        put32(h + 20, specs[i].raw_at);
        put32(h + 36, specs[i].flags);
    }
    return f;
}

static fc_status parse(const unsigned char *f, size_t size, fc_pe *pe, char *err)
{
    return fc_pe_parse(f, size, 1u << 20, pe, err, 256);
}

static void headers(void)
{
    char err[256];
    fc_pe pe;
    section_spec s = {".nv_fatb", 0x1000, 0x100, 0x400, 0x200, 0x40000040};
    unsigned char *f = make_pe(0x600, &s, 1, 0);
    is_u64(fc_pe_sniff(f, 0x600), FC_FORMAT_PE, "a PE32+ image is sniffed as PE");
    ok(parse(f, 0x600, &pe, err) == FC_OK, "it parses");
    is_str(pe.sections[0].name, ".nv_fatb", "the section's name");
    is_u64(pe.sections[0].size, 0x100, "an image section ends at its virtual size when that is smaller");
    is_u64(pe.image_base, IMAGE_BASE, "the image base");
    is_u64(pe.sections[0].offset, 0x400, "the section's bytes start at its raw data");
    fc_pe_free(&pe);

    is_u64(fc_pe_sniff(f, 0x90), FC_FORMAT_UNKNOWN, "cut before the COFF header ends: not PE");
    put32(f + 0x3c, 0xfffffff0);
    is_u64(fc_pe_sniff(f, 0x600), FC_FORMAT_UNKNOWN, "e_lfanew past the end: not PE");
    put32(f + 0x3c, LFANEW);

    is_u64(parse(f, TABLE_AT - 8, &pe, err), FC_ERR_FORMAT, "optional header cut short: an error");
    is_str(err, "optional header (240 bytes at 0x98) runs past the end of the file", "  saying so");
    put16(f + LFANEW + 24, 0x107);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT && strstr(err, "neither PE32 nor PE32+"), "a ROM image: an error");
    put16(f + LFANEW + 24, 0x20b);
    put16(f + LFANEW + 6, 0xffff);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT, "65,535 sections in a small file: an error");
    is_str(err, "section table (65535 sections at 0x188) runs past the end of the file", "  saying so");
    put16(f + LFANEW + 6, 1);
    put32(f + TABLE_AT + 16, 0xffffffff);
    put32(f + TABLE_AT + 8, 0);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT, "raw data of 4 GiB: an error");
    is_str(err, "section .nv_fatb (offset 0x400, 4294967295 bytes) runs past the end of the file", "  saying so");
    put32(f + TABLE_AT + 20, 0xfffffe00);
    put32(f + TABLE_AT + 16, 0x400);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT, "raw data offset near 4 GiB: an error");
    put32(f + TABLE_AT + 20, 0x400);
    is_u64(fc_pe_parse(f, 0x600, 0, &pe, err, 256), FC_ERR_LIMIT, "more sections than the limit: refused");
    is_str(err, "1 sections, more than the limit of 0; not read", "  saying so");
    free(f);

    /* A /bigobj object declaring 36 million sections in 56 bytes: refused before anything is
     * allocated for them (the table would run past the end anyway). */
    static const unsigned char bigobj_class[16] = {0xc7, 0xa1, 0xba, 0xd1, 0xee, 0xba, 0xa9, 0x4b,
                                                   0xaf, 0x20, 0xfa, 0xf6, 0x6a, 0xa4, 0xdc, 0xb8};
    unsigned char big[56] = {0};
    put16(big + 2, 0xffff);
    put16(big + 4, 2);
    put16(big + 6, 0x8664);
    memcpy(big + 12, bigobj_class, 16);
    put32(big + 44, 36000000);
    is_u64(fc_pe_sniff(big, sizeof big), FC_FORMAT_COFF, "a /bigobj header is COFF");
    is_u64(parse(big, sizeof big, &pe, err), FC_ERR_LIMIT, "36,000,000 sections: over the default limit");
    is_str(err, "36000000 sections, more than the limit of 1048576; not read", "  saying so");

    /* Long names: "/4" and "//AAAAAE" (base64 4) into a string table at 0x500. */
    section_spec l[3] = {{"/4", 0x1000, 0, 0, 0, 0x40000040}, {"//AAAAAE", 0x2000, 0, 0, 0, 0x40000040},
                         {"/400", 0x3000, 0, 0, 0, 0x40000040}};
    f = make_pe(0x600, l, 2, 0x500);
    put32(f + 0x500, 4 + 11);
    memcpy(f + 0x504, ".nv_fatbin", 11);
    ok(parse(f, 0x600, &pe, err) == FC_OK, "long names parse");
    is_str(pe.sections[0].name, ".nv_fatbin", "/4 names the string table's first string");
    is_str(pe.sections[1].name, ".nv_fatbin", "//AAAAAE is the same offset in base 64");
    fc_pe_free(&pe);
    free(f);
    f = make_pe(0x600, l, 3, 0x500);
    put32(f + 0x500, 4 + 11);
    memcpy(f + 0x504, ".nv_fatbin", 11);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT, "a long name past the string table: an error");
    is_str(err, "section 3: long name /400 lies outside the string table (15 bytes)", "  saying so");
    put32(f + 0x500, 0x1000);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT, "a string table that claims to run past the end...");
    is_str(err, "section 3: long name /400 lies outside the string table (256 bytes)", "  is read up to the end");
    put16(f + LFANEW + 6, 2);
    ok(parse(f, 0x600, &pe, err) == FC_OK && pe.n_sections == 2, "  and names inside it resolve");
    fc_pe_free(&pe);
    free(f);
    f = make_pe(0x600, l, 1, 0);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT, "a long name without a string table is an error");
    is_str(err, "section 1: long name /4, but there is no string table", "  saying so");
    memset(f + 0x500, 'x', 0x100);
    put32(f + LFANEW + 4 + 8, 0x500);
    put32(f + 0x500, 0x100);
    ok(parse(f, 0x600, &pe, err) == FC_ERR_FORMAT, "a long name without a NUL before the table ends: an error");
    is_str(err, "section 1: long name /4 runs past the string table", "  saying so");
    free(f);

    /* A plain COFF object: no magic, so plausibility decides. */
    unsigned char obj[20 + 40 + 64] = {0};
    put16(obj, 0x8664);
    put16(obj + 2, 1);
    memcpy(obj + 20, ".rdata", 6);
    put32(obj + 20 + 16, 64);
    put32(obj + 20 + 20, 60);
    is_u64(fc_pe_sniff(obj, sizeof obj), FC_FORMAT_COFF, "a plausible x64 object is COFF");
    put32(obj + 20 + 20, 8);
    is_u64(fc_pe_sniff(obj, sizeof obj), FC_FORMAT_UNKNOWN, "data inside the headers: not COFF");
    put32(obj + 20 + 20, 60);
    obj[20] = 0x01;
    is_u64(fc_pe_sniff(obj, sizeof obj), FC_FORMAT_UNKNOWN, "an unprintable section name: not COFF");
    obj[20] = '.';
    put16(obj + 16, 8);
    is_u64(fc_pe_sniff(obj, sizeof obj), FC_FORMAT_UNKNOWN, "an optional header: not an object");
}

/* Writes at P a container of one cubin entry with PAYLOAD bytes for sm_ARCH; returns its length. */
static size_t container(unsigned char *p, uint64_t payload, uint32_t arch)
{
    put32(p, 0xBA55ED50u);
    put16(p + 4, 1);
    put16(p + 6, 16);
    put64(p + 8, 64 + payload);
    unsigned char *e = p + 16;
    memset(e, 0, 64);
    put16(e, 2);
    put16(e + 2, 0x0101);
    put32(e + 4, 64);
    put64(e + 8, payload);
    put16(e + 24, 8);
    put16(e + 26, 1);
    put32(e + 28, arch);
    memset(e + 64, 0x5a, payload);
    return 16 + 64 + payload;
}

typedef struct result {
    char text[1 << 16];
    size_t n;
} result;

static int on_object(void *ctx, const fc_object *o)
{
    result *r = ctx;
    for (size_t i = 0; i < o->n_containers; i++)
        r->n += (size_t)snprintf(r->text + r->n, sizeof r->text - r->n, "%llx:%s ",
                                 (unsigned long long)o->containers[i].offset, o->containers[i].section);
    if (o->error)
        r->n += (size_t)snprintf(r->text + r->n, sizeof r->text - r->n, "error: %s", o->error);
    return 0;
}

static void scan(const char *path, const unsigned char *f, size_t size, unsigned threads, result *file,
                 result *mem)
{
    fc_options o;
    fc_options_init(&o);
    o.threads = threads;
    memset(file, 0, sizeof *file);
    memset(mem, 0, sizeof *mem);
    fc_scan(path, &o, on_object, NULL, file);
    fc_scan_memory(f, size, path, &o, on_object, NULL, mem);
}

/* A 20 MiB .nv_fatb of 96 KiB containers, with records for most of them and one that points
 * inside a payload: four threads, splitting the walk at the records, find what one finds, and
 * the record that leads to no container is the image's error. */
static void split_walk(void)
{
    const uint32_t sec_at = 0x400, sec_size = 20 * MiB, rva = 0x1000;
    const uint32_t table_at = sec_at + sec_size, table_rva = rva + sec_size + 0x1000;
    uint32_t n_records = 0, records[512], lie = 0;
    size_t size = table_at + 512 * 24;
    section_spec s[2] = {{".nv_fatb", rva, sec_size, sec_at, sec_size, 0x40000040},
                         {".nvFatBi", table_rva, 512 * 24, table_at, 512 * 24, 0x40000040}};
    unsigned char *f = make_pe(size, s, 2, 0);
    char want[1 << 15];
    size_t w = 0, at = 0;
    for (int i = 0; at + 100 * 1024 < 19 * MiB; i++) {
        size_t len = container(f + sec_at + at, 96 * 1024, 80 + (uint32_t)(i % 3));
        if (i % 5 != 4)
            records[n_records++] = (uint32_t)at;
        if (i == 50) {
            lie = n_records;
            records[n_records++] = (uint32_t)at + 4096; /* a lie: inside the payload */
        }
        w += (size_t)snprintf(want + w, sizeof want - w, "%zx:.nv_fatb ", sec_at + at);
        at += len + (i % 3 == 2 ? 8 : 0);
    }
    for (uint32_t i = 0; i < n_records; i++) {
        unsigned char *r = f + table_at + 24 * i;
        put32(r, 0x466243B1u);
        put32(r + 4, 1);
        put64(r + 8, IMAGE_BASE + rva + records[i]);
    }
    char path[] = "/tmp/fc_pe_XXXXXX";
    int fd = mkstemp(path);
    snprintf(want + w, sizeof want - w,
             "error: %s: registration record %u (offset 0x%x) points at 0x%llx (offset 0x%x), where there is no fat "
             "binary: the CUDA runtime fails to register it", path, lie + 1, table_at + 24 * lie,
             (unsigned long long)(IMAGE_BASE + rva + records[lie]), sec_at + records[lie]);
    ok(fd >= 0 && write(fd, f, size) == (ssize_t)size, "temporary PE written");
    close(fd);
    static result one_file, one_mem, four_file, four_mem;
    scan(path, f, size, 1, &one_file, &one_mem);
    scan(path, f, size, 4, &four_file, &four_mem);
    is_str(one_file.text, want, "one thread: every container of .nv_fatb, in order");
    is_str(four_file.text, want, "four threads, split at the records: the same");
    is_str(one_mem.text, want, "from memory, one thread: the same");
    is_str(four_mem.text, want, "from memory, four threads: the same");
    unlink(path);
    free(f);
}

int main(void)
{
    headers();
    split_walk();
    return tap_done();
}
