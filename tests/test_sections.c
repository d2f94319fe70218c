/* test_sections.c - a registered section walked in parallel segments gives what one thread
 * walking its chain gives: when the registration table names a wrong start (a container
 * inside another's payload) or leaves starts out, when a container or zero padding
 * straddles a segment boundary, when the chain breaks, and when it ends early. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fatcheck.h"
#include "tap.h"
#include "testutil.h"

#define MiB (1u << 20)
#define SECTION_AT 4096u  /* file offset of .nv_fatbin */

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
    memset(e + 64, 0x5a, payload); /* payload bytes: no zeros, no magic */
    return 16 + 64 + payload;
}

#define SECTION_ADDR 0x200000u /* .nv_fatbin's address */

/* A section header that make_elf adds after its own: a second name for bytes it has. */
typedef struct extra_section {
    const char *name;   /* one of make_elf's names: .nv_fatbin, .data */
    uint64_t offset, size;
} extra_section;

/* A minimal x86-64 shared object: ELF header, .nv_fatbin at SECTION_AT, a registration
 * table (.nvFatBinSegment) listing the N_TABLE section offsets TABLE, .shstrtab, then the
 * section headers, with EXTRA after them when not NULL. */
static unsigned char *make_elf_with(const unsigned char *sec, size_t sec_size, const size_t *table, size_t n_table,
                                    const extra_section *extra, size_t *out_size)
{
    static const char names[] = "\0.nv_fatbin\0.shstrtab\0.nvFatBinSegment\0.data";
    size_t table_at = SECTION_AT + sec_size, strtab_at = table_at + 24 * n_table;
    size_t shoff = (strtab_at + sizeof names + 7) & ~(size_t)7, size = shoff + (extra ? 5 : 4) * 64;
    unsigned char *f = calloc(1, size);
    memcpy(f, "\177ELF", 4);
    f[4] = 2; f[5] = 1; f[6] = 1;
    put16(f + 16, 3);     /* ET_DYN */
    put16(f + 18, 62);    /* EM_X86_64 */
    put32(f + 20, 1);
    put64(f + 40, shoff);
    put16(f + 52, 64);    /* e_ehsize */
    put16(f + 58, 64);    /* e_shentsize */
    put16(f + 60, extra ? 5 : 4); /* e_shnum */
    put16(f + 62, 2);     /* e_shstrndx */
    memcpy(f + SECTION_AT, sec, sec_size);
    for (size_t i = 0; i < n_table; i++) {
        put32(f + table_at + 24 * i, 0x466243B1u);
        put32(f + table_at + 24 * i + 4, 1);
        put64(f + table_at + 24 * i + 8, SECTION_ADDR + table[i]);
    }
    memcpy(f + strtab_at, names, sizeof names);
    unsigned char *sh = f + shoff + 64;
    put32(sh, 1); put32(sh + 4, 1); put64(sh + 8, 2); /* .nv_fatbin: PROGBITS, ALLOC */
    put64(sh + 16, SECTION_ADDR); put64(sh + 24, SECTION_AT); put64(sh + 32, sec_size); put64(sh + 48, 8);
    sh += 64;
    put32(sh, 12); put32(sh + 4, 3);                   /* .shstrtab: STRTAB */
    put64(sh + 24, strtab_at); put64(sh + 32, sizeof names); put64(sh + 48, 1);
    sh += 64;
    put32(sh, 22); put32(sh + 4, 1); put64(sh + 8, 3); /* .nvFatBinSegment: PROGBITS, WRITE|ALLOC */
    put64(sh + 24, table_at); put64(sh + 32, 24 * n_table); put64(sh + 48, 8);
    if (extra) {
        sh += 64;
        put32(sh, strcmp(extra->name, ".data") == 0 ? 39 : 1);
        put32(sh + 4, 1); put64(sh + 8, 3);               /* PROGBITS, WRITE|ALLOC */
        put64(sh + 24, extra->offset); put64(sh + 32, extra->size); put64(sh + 48, 8);
    }
    *out_size = size;
    return f;
}

static unsigned char *make_elf(const unsigned char *sec, size_t sec_size, const size_t *table, size_t n_table,
                               size_t *out_size)
{
    return make_elf_with(sec, sec_size, table, n_table, NULL, out_size);
}

typedef struct result {
    char text[1 << 16];
    size_t n;
} result;

static int on_object(void *ctx, const fc_object *o)
{
    result *r = ctx;
    for (size_t i = 0; i < o->n_containers; i++)
        r->n += (size_t)snprintf(r->text + r->n, sizeof r->text - r->n, "%llx:%llu/%zu ",
                                 (unsigned long long)o->containers[i].offset,
                                 (unsigned long long)o->containers[i].size, o->containers[i].n_entries);
    if (o->error)
        r->n += (size_t)snprintf(r->text + r->n, sizeof r->text - r->n, "error: %s", o->error);
    return 0;
}

static int on_error(void *ctx, const fc_error *e)
{
    result *r = ctx;
    r->n += (size_t)snprintf(r->text + r->n, sizeof r->text - r->n, "failed: %s", e->message);
    return 0;
}

static void scan_both(const unsigned char *elf, size_t size, const char *path, unsigned threads, result *file,
                      result *mem)
{
    fc_options o;
    fc_options_init(&o);
    o.threads = threads;
    memset(file, 0, sizeof *file);
    memset(mem, 0, sizeof *mem);
    fc_scan(path, &o, on_object, on_error, file);
    fc_scan_memory(elf, size, path, &o, on_object, on_error, mem);
}

/* Scans the section as a file and from memory, on one thread and on four, and checks that
 * all four agree. Returns the one-thread result. */
static result *check(const char *what, const unsigned char *sec, size_t sec_size, const size_t *table,
                     size_t n_table)
{
    size_t size;
    unsigned char *elf = make_elf(sec, sec_size, table, n_table, &size);
    char path[] = "/tmp/fc_sections_XXXXXX";
    int fd = mkstemp(path);
    ok(fd >= 0 && write(fd, elf, size) == (ssize_t)size, "%s: temporary file written", what);
    close(fd);
    static result one_file, one_mem, four_file, four_mem;
    scan_both(elf, size, path, 1, &one_file, &one_mem);
    scan_both(elf, size, path, 4, &four_file, &four_mem);
    is_str(four_file.text, one_file.text, "%s: four threads find what one finds (file)", what);
    is_str(one_mem.text, one_file.text, "%s: memory gives what the file gives (one thread)", what);
    is_str(four_mem.text, one_file.text, "%s: memory gives what the file gives (four threads)", what);
    unlink(path);
    free(elf);
    return &one_file;
}

/* Scans an ELF whose section table has EXTRA besides .nv_fatbin (three containers); the
 * result, on one thread and on four (which agree). */
static const char *with_extra(const extra_section *extra, const char *what)
{
    static unsigned char sec[3 * 1200];
    memset(sec, 0, sizeof sec);
    size_t at = 0;
    for (int i = 0; i < 3; i++)
        at += container(sec + at, 1024, 80 + (uint32_t)i);
    size_t size;
    unsigned char *elf = make_elf_with(sec, at, NULL, 0, extra, &size);
    char path[] = "/tmp/fc_sections_XXXXXX";
    int fd = mkstemp(path);
    ok(fd >= 0 && write(fd, elf, size) == (ssize_t)size, "%s: temporary file written", what);
    close(fd);
    static result one, four, mem;
    scan_both(elf, size, path, 4, &four, &mem);
    scan_both(elf, size, path, 1, &one, &mem);
    is_str(four.text, one.text, "%s: four threads find what one finds", what);
    is_str(mem.text, one.text, "%s: memory gives what the file gives", what);
    unlink(path);
    free(elf);
    return one.text;
}

/* A section table that names the same bytes twice, or overlapping ones: every container
 * once, and the oddity said. */
static void overlapping_sections(void)
{
    char want[1024];
    snprintf(want, sizeof want, "%x:1104/1 %x:1104/1 %x:1104/1 ", SECTION_AT, SECTION_AT + 1104, SECTION_AT + 2208);
    is_str(with_extra(NULL, "three containers"), want, "three containers: each once, no error");
    extra_section twice = {".nv_fatbin", SECTION_AT, 3 * 1104};
    const char *got = with_extra(&twice, ".nv_fatbin named twice");
    ok(strncmp(got, want, strlen(want)) == 0 && strstr(got, "error: ") &&
           strstr(got, "names the bytes of section .nv_fatbin (offset 0x1000, 3312 bytes) again, as .nv_fatbin: "
                       "they were read once"),
       ".nv_fatbin named twice: three containers, not six, and said: %s", got);
    extra_section inside = {".nv_fatbin", SECTION_AT + 1104, 1104};
    got = with_extra(&inside, "a second .nv_fatbin inside the first");
    ok(strncmp(got, want, strlen(want)) == 0 && strstr(got, "overlaps section .nv_fatbin") && strstr(got, "not read"),
       "a second .nv_fatbin inside the first: three containers, and said: %s", got);
    extra_section data = {".data", SECTION_AT, 3 * 1104};
    got = with_extra(&data, "a data section naming .nv_fatbin's bytes");
    ok(strncmp(got, want, strlen(want)) == 0 && strstr(got, "again, as .data: they were read once"),
       "a data section naming .nv_fatbin's bytes: not searched for embedded copies of its containers, and said: %s",
       got);
    extra_section over = {".data", SECTION_AT + 1000, 2 * 1104};
    got = with_extra(&over, "a data section over part of .nv_fatbin");
    ok(strncmp(got, want, strlen(want)) == 0 && strstr(got, "section .data (offset 0x13e8, 2208 bytes) overlaps "
                                                            "section .nv_fatbin"),
       "a data section over part of .nv_fatbin: not searched, and said: %s", got);
}

int main(void)
{
    size_t sec_size = 20 * MiB; /* enough work for helper threads to be woken */
    unsigned char *sec = calloc(1, sec_size);
    char want[16384];
    size_t w = 0, at = 0, table[512], n_table = 0;
    /* A: 5 MiB, across the first segment boundary, with a valid-looking container inside
     * its payload just after the 4 MiB mark: the second segment's guess, and a wrong one. */
    size_t a_len = container(sec, 5 * MiB, 90);
    container(sec + 4 * MiB + 16, 1000, 80);
    table[n_table++] = 0;
    table[n_table++] = 4 * MiB + 16; /* the table lies: the walk must not take it at its word */
    w += (size_t)snprintf(want + w, sizeof want - w, "%x:%zu/1 ", SECTION_AT, a_len);
    at = a_len;
    /* Then 96 KiB containers, with 8 bytes of zero padding after every third, up to 19 MiB:
     * containers and padding straddle later boundaries as they fall. */
    for (int i = 0; at + 100 * 1024 < 19 * MiB; i++) {
        size_t len = container(sec + at, 96 * 1024, 80 + (uint32_t)(i % 3));
        if (i % 5 != 4) /* and leaves some out */
            table[n_table++] = at;
        w += (size_t)snprintf(want + w, sizeof want - w, "%zx:%zu/1 ", SECTION_AT + at, len);
        at += len + (i % 3 == 2 ? 8 : 0);
    }
    result *r = check("wrong start, straddling containers", sec, sec_size, table, n_table);
    is_str(r->text, want, "wrong start: the chain as laid out, without the container inside A's payload");

    /* The chain broken in the third segment: an entry header size below the minimum. */
    size_t broken = 9 * MiB;
    at = 0;
    size_t n_before = 0;
    while (at < broken) { /* find the container that starts after 9 MiB */
        const unsigned char *c = sec + at;
        size_t len = 16 + 64 + (size_t)(c[24] | c[25] << 8 | c[26] << 16 | (size_t)c[27] << 24);
        at += len;
        while (at < sec_size && sec[at] == 0)
            at++;
        n_before++;
    }
    put32(sec + at + 16 + 4, 8);
    r = check("broken chain", sec, sec_size, table, n_table);
    ok(strstr(r->text, "entry header size 8 is below the minimum") != NULL, "broken chain: the problem is reported");
    size_t n = 0;
    const char *end = strstr(r->text, "error:");
    for (const char *p = r->text; (p = strchr(p, '/')) && (!end || p < end); p++)
        n++;
    is_u64(n, n_before + 1, "broken chain: the containers before it, and the broken one, are kept");

    /* Nothing but padding after A: later segments find no container at all. */
    memset(sec + a_len, 0, sec_size - a_len);
    r = check("padding to the end", sec, sec_size, table, n_table);
    is_str(r->text, "1000:5242960/1 ", "padding to the end: A alone");
    free(sec);

    overlapping_sections();
    return tap_done();
}
