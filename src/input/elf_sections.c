/* elf_sections.c - how many sections an ELF object declares, read before libelf is given it.
 *
 * libelf sets up a descriptor for every section as soon as an object is opened (elfutils
 * 0.188: a million sections took 250 MiB), so a file of nothing but section headers, 64
 * bytes each, costs four times its size. Objects, and archives holding one, that declare
 * more than opts->max_sections are refused before libelf sees them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "elf_header.h"
#include "image.h"
#include "input.h"

bool fc_elf_sections_ok(const fc_image *img, uint64_t limit, char *why, size_t why_size)
{
    const uint8_t *p = img->data;
    uint64_t n = img->size;
    if (n < 8 || memcmp(p, "!<arch>\n", 8) != 0) {
        uint64_t count = fc_elf_section_count(p, n);
        if (count <= limit)
            return true;
        snprintf(why, why_size, "%llu sections, more than the limit of %llu; not read", (unsigned long long)count,
                 (unsigned long long)limit);
        return false;
    }
    /* An archive: each member's 60-byte header gives its size in decimal at 48. */
    for (uint64_t at = 8; at + 60 <= n;) {
        char field[11];
        memcpy(field, p + at + 48, 10);
        field[10] = '\0';
        char *end;
        unsigned long long size = strtoull(field, &end, 10);
        uint64_t data = at + 60, skip = 0;
        if (end == field || size > n - data)
            break; /* libelf says what is wrong with it */
        if (memcmp(p + at, "#1/", 3) == 0) { /* BSD: the name comes first in the data */
            memcpy(field, p + at + 3, 10);
            skip = strtoull(field, NULL, 10);
        }
        if (p[at] != '/' && skip < size) {
            uint64_t count = fc_elf_section_count(p + data + skip, size - skip);
            if (count > limit) {
                snprintf(why, why_size,
                         "member at offset 0x%llx declares %llu sections, more than the limit of %llu; the archive is not read",
                         (unsigned long long)at, (unsigned long long)count, (unsigned long long)limit);
                return false;
            }
        }
        at = data + size + (size & 1);
    }
    return true;
}
