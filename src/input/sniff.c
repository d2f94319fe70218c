/* sniff.c - telling formats apart from an input's first bytes. */
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "input.h"
#include "pe.h"

/* Format detection from the first bytes (package.c tells packages, fc_sniff_package). */
fc_format fc_sniff(const uint8_t *buf, size_t size, bool *is_archive)
{
    *is_archive = false;
    if (size >= 8 && memcmp(buf, "!<arch>\n", 8) == 0 && !fc_sniff_deb(buf, size)) {
        *is_archive = true;
        return FC_FORMAT_ELF;
    }
    if (size >= 8 && memcmp(buf, "!<thin>\n", 8) == 0) { /* said to be unread (fc_scan_elf) */
        *is_archive = true;
        return FC_FORMAT_ELF;
    }
    if (size >= 4 && memcmp(buf, "\177ELF", 4) == 0)
        return FC_FORMAT_ELF;
    if (size >= 4 && fc_rd32(buf) == FC_FATBIN_MAGIC)
        return FC_FORMAT_FATBIN;
    if (fc_ptx_text_probe(buf, size))
        return FC_FORMAT_PTX;
    return fc_pe_sniff(buf, size);
}
