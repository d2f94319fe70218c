/* elf_compressed.c - registered sections stored compressed, read decompressed as objects of
 * their own (elf_compressed.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "elf_header.h"
#include "elf_compressed.h"
#include "input.h"
#include "reader.h"

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

bool fc_elf_compressed_fatbin(const char *name, const GElf_Shdr *sh)
{
    if (sh->sh_type != SHT_PROGBITS || sh->sh_size == 0)
        return false;
    bool registered = strcmp(name, ".nv_fatbin") == 0 || strcmp(name, "__nv_relfatbin") == 0;
    return (registered && (sh->sh_flags & SHF_COMPRESSED)) || strcmp(name, ".znv_fatbin") == 0;
}

/* Little-endian ELF64 header and section header fields, for the scratch file below. */
static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* libelf decompresses no section that is loaded (SHF_ALLOC: the ELF standard allows none to
 * be compressed), and it rewrites the section header of the file it was given, which may be
 * a caller's buffer. So the section is copied into a small ELF file of our own, unloaded,
 * with a 64-bit compression header (HEADER, or none for GNU's form), and decompressed there.
 * Returns that file's buffer (the caller frees it after elf_end), or NULL. */
static uint8_t *scratch_file(const uint8_t *header, size_t header_size, const uint8_t *body, size_t body_size,
                             bool gnu, size_t *size)
{
    size_t data = 64, n = header_size + body_size, shoff = (data + n + 7) & ~(size_t)7;
    if (n < body_size || shoff < data + n || shoff > SIZE_MAX - 128)
        return NULL;
    uint8_t *f = calloc(1, shoff + 128);
    if (!f)
        return NULL;
    memcpy(f, "\177ELF", 4);
    f[EI_CLASS] = ELFCLASS64;
    f[EI_DATA] = ELFDATA2LSB;
    f[EI_VERSION] = EV_CURRENT;
    put16(f + 16, ET_REL);
    put32(f + 20, EV_CURRENT);
    put64(f + 40, shoff);
    put16(f + 52, 64);  /* e_ehsize */
    put16(f + 58, 64);  /* e_shentsize */
    put16(f + 60, 2);   /* e_shnum: the null section and ours */
    if (header_size)
        memcpy(f + data, header, header_size);
    memcpy(f + data + header_size, body, body_size);
    uint8_t *sh = f + shoff + 64;
    put32(sh + 4, SHT_PROGBITS);
    put64(sh + 8, gnu ? 0 : SHF_COMPRESSED);
    put64(sh + 24, data);
    put64(sh + 32, n);
    put64(sh + 48, 8);
    *size = shoff + 128;
    return f;
}

/* The decompressed bytes of a registered section whose stored bytes are RAW (RAW_SIZE), in
 * a file of class IS64; GNU for the ".z" form. They are libelf's, in *TMP (the caller calls
 * elf_end, then frees *SCRATCH), or ours, in OWN. WHY says what went wrong otherwise. */
static fc_status decompress(const fc_options *opts, const uint8_t *raw, uint64_t raw_size, bool is64, bool gnu,
                            Elf **tmp, uint8_t **scratch, const uint8_t **bytes, size_t *len, fc_buffer *own,
                            char *why, size_t why_size)
{
    uint64_t declared, align = 8;
    unsigned type = ELFCOMPRESS_ZLIB;
    size_t header;
    if (gnu) { /* "ZLIB", then the size as 8 big-endian bytes */
        if (raw_size < 12 || memcmp(raw, "ZLIB", 4) != 0) {
            snprintf(why, why_size, "is named as compressed (.z), but does not start with \"ZLIB\"");
            return FC_ERR_FORMAT;
        }
        declared = 0;
        for (int i = 0; i < 8; i++)
            declared = declared << 8 | raw[4 + i];
        header = 12;
    } else if (is64 ? raw_size < 24 : raw_size < 12) {
        snprintf(why, why_size, "is too short for its compression header (%llu bytes)", (unsigned long long)raw_size);
        return FC_ERR_FORMAT;
    } else { /* Elf64_Chdr: type, reserved, size, alignment; Elf32_Chdr: type, size, alignment */
        type = fc_rd32(raw);
        declared = is64 ? fc_rd64(raw + 8) : fc_rd32(raw + 4);
        align = is64 ? fc_rd64(raw + 16) : fc_rd32(raw + 8);
        header = is64 ? 24 : 12;
    }
    /* Inflating allocates the declared size first: bound it. */
    if (declared > opts->max_decompressed_size) {
        snprintf(why, why_size, "would decompress to %llu bytes, more than the %llu-byte limit",
                 (unsigned long long)declared, (unsigned long long)opts->max_decompressed_size);
        return FC_ERR_LIMIT;
    }
    if (type == ELFCOMPRESS_ZSTD && !gnu) {
        fc_status st = fc_decompress_buffer(FC_COMPRESSION_ZSTD, raw + header, (size_t)(raw_size - header), declared,
                                            opts->max_decompressed_size, own, len);
        if (st == FC_OK && *len != declared)
            st = FC_ERR_FORMAT;
        if (st != FC_OK)
            snprintf(why, why_size, "could not be decompressed (zstd): %s%s", fc_status_name(st),
                     st == FC_ERR_FORMAT ? " data, or not the size its header gives" : "");
        *bytes = own->p;
        return st;
    }
    if (type != ELFCOMPRESS_ZLIB) {
        snprintf(why, why_size, "is compressed with method %u, which fatcheck does not read", type);
        return FC_ERR_UNSUPPORTED;
    }
    uint8_t chdr[24] = {0};
    put32(chdr, ELFCOMPRESS_ZLIB);
    put64(chdr + 8, declared);
    put64(chdr + 16, align);
    size_t size;
    Elf_Scn *scn;
    Elf_Data *d;
    if (!(*scratch = gnu ? scratch_file(NULL, 0, raw, (size_t)raw_size, true, &size)
                         : scratch_file(chdr, sizeof chdr, raw + header, (size_t)(raw_size - header), false, &size))) {
        snprintf(why, why_size, "could not be decompressed: out of memory");
        return FC_ERR_NOMEM;
    }
    if (!(*tmp = elf_memory((char *)*scratch, size)) || !(scn = elf_getscn(*tmp, 1)) ||
        (gnu ? elf_compress_gnu(scn, 0, 0) : elf_compress(scn, 0, 0)) < 0 || !(d = elf_getdata(scn, NULL))) {
        snprintf(why, why_size, "could not be decompressed (zlib): %s", elf_errmsg(-1));
        return FC_ERR_FORMAT;
    }
    *bytes = d->d_buf;
    *len = d->d_size;
    return FC_OK;
}

int fc_elf_scan_compressed(fc_scan_ctx *sc, const uint8_t *raw, uint64_t raw_size, bool is64, bool gnu,
                           const char *name, const char *path, const char *member)
{
    size_t n = (member ? strlen(member) + 2 : 0) + strlen(name) + 1;
    char *inner = malloc(n);
    fc_builder b;
    int rc = 0;
    if (!inner)
        return fc_report_error(sc, FC_ERR_NOMEM, path, member, "out of memory");
    if (member)
        snprintf(inner, n, "%s(%s)", member, name);
    else
        snprintf(inner, n, "%s", name);
    bool started = fc_builder_start(sc, &b, path, inner, &rc);
    free(inner);
    if (!started)
        return rc;
    b.obj.format = FC_FORMAT_ELF; /* a section of an ELF file */
    fc_buffer own = {0};
    Elf *tmp = NULL;
    uint8_t *scratch = NULL;
    const uint8_t *bytes = NULL;
    size_t len = 0;
    char why[300];
    fc_libelf_init();
    fc_status st = decompress(b.opts, raw, raw_size, is64, gnu, &tmp, &scratch, &bytes, &len, &own, why, sizeof why);
    if (st != FC_OK) {
        fc_builder_fail(&b, st, "section %s, stored compressed, %s", name, why);
    } else {
        /* Its image is the decompressed section: offsets count from its start. */
        b.obj.image = bytes;
        b.obj.size = len;
        fc_reader r;
        fc_reader_memory(&r, bytes, 0, len);
        fc_builder_where(&b, name, 0);
        fc_fatbin_decode_run(&b, &r, 0, len, FC_ORIGIN_SECTION, name);
    }
    rc = fc_deliver(sc, &b);
    elf_end(tmp);
    free(scratch);
    free(own.p);
    return rc;
}
