/* names.c - names of statuses, kinds, origins, formats and architectures. */
#include <stdio.h>
#include <string.h>

#include "fatcheck.h"

const char *fc_status_name(fc_status s)
{
    switch (s) {
    case FC_OK: return "ok";
    case FC_ERR_IO: return "read error";
    case FC_ERR_FORMAT: return "format error";
    case FC_ERR_LIMIT: return "limit exceeded";
    case FC_ERR_NOMEM: return "out of memory";
    case FC_ERR_INVALID: return "invalid argument";
    case FC_ERR_UNSUPPORTED: return "unsupported";
    }
    if ((int)s == FC_STOP)
        return "stopped by a callback";
    return "unknown status";
}

const char *fc_image_kind_name(fc_image_kind k)
{
    switch (k) {
    case FC_IMAGE_PTX: return "ptx";
    case FC_IMAGE_CUBIN: return "cubin";
    case FC_IMAGE_LTOIR: return "ltoir";
    case FC_IMAGE_UNKNOWN: break;
    }
    return "unknown";
}

const char *fc_compression_name(fc_compression c)
{
    switch (c) {
    case FC_COMPRESSION_NONE: return "none";
    case FC_COMPRESSION_LZ4: return "lz4";
    case FC_COMPRESSION_ZSTD: return "zstd";
    case FC_COMPRESSION_UNKNOWN: break;
    }
    return "unknown";
}

const char *fc_origin_name(fc_origin o)
{
    switch (o) {
    case FC_ORIGIN_SECTION: return "section";
    case FC_ORIGIN_EMBEDDED: return "embedded";
    case FC_ORIGIN_FATBIN_FILE: return "fatbin";
    case FC_ORIGIN_CUBIN_FILE: return "cubin";
    case FC_ORIGIN_PTX_FILE: return "ptx";
    case FC_ORIGIN_WRAPPER: return "wrapper";
    case FC_ORIGIN_SEGMENT: return "segment";
    case FC_ORIGIN_PTX_TEXT: return "ptx_text";
    case FC_ORIGIN_EMBEDDED_CUBIN: return "embedded_cubin";
    }
    return "unknown";
}

const char *fc_format_name(fc_format f)
{
    switch (f) {
    case FC_FORMAT_ELF: return "elf";
    case FC_FORMAT_FATBIN: return "fatbin";
    case FC_FORMAT_CUBIN: return "cubin";
    case FC_FORMAT_PTX: return "ptx";
    case FC_FORMAT_PACKAGE: return "package";
    case FC_FORMAT_PE: return "pe";
    case FC_FORMAT_COFF: return "coff";
    case FC_FORMAT_DATA: return "data";
    case FC_FORMAT_IMAGE: return "image";
    case FC_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

static const char *variant_suffix(fc_variant v)
{
    return v == FC_VARIANT_ARCH_SPECIFIC ? "a" : v == FC_VARIANT_FAMILY ? "f" : "";
}

char *fc_entry_arch_name(char *buf, size_t size, const fc_entry *e)
{
    const char *prefix = e->kind == FC_IMAGE_PTX ? "compute_" : e->kind == FC_IMAGE_LTOIR ? "lto_" : "sm_";
    snprintf(buf, size, "%s%u%s", prefix, e->arch, variant_suffix(e->variant));
    return buf;
}

char *fc_entry_cuobjdump_arch(char *buf, size_t size, const fc_entry *e)
{
    /* Checked against cuobjdump 13.0: sm_100f cubins are listed as sm_100, while PTX keeps
     * both suffixes (variants.2.sm_100f.ptx). */
    fc_variant v = e->variant;
    if (e->kind != FC_IMAGE_PTX && v == FC_VARIANT_FAMILY)
        v = FC_VARIANT_NONE;
    snprintf(buf, size, "sm_%u%s", e->arch, variant_suffix(v));
    return buf;
}
