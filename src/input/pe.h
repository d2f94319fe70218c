/* pe.h - the section tables of Windows PE images (DLL, EXE, .pyd) and COFF objects (.obj). */
#ifndef FC_PE_H
#define FC_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fatcheck.h"

/* Section characteristics (PE/COFF specification, "Section Flags"). */
#define FC_PE_SCN_CNT_CODE 0x20u
#define FC_PE_SCN_CNT_INITIALIZED_DATA 0x40u
#define FC_PE_SCN_LNK_INFO 0x200u
#define FC_PE_SCN_LNK_REMOVE 0x800u
#define FC_PE_SCN_MEM_EXECUTE 0x20000000u
#define FC_PE_SCN_MEM_WRITE 0x80000000u

typedef struct fc_pe_section {
    /* NUL-terminated: SHORT_NAME, or a long name in the input's string table (valid as long
     * as the input's bytes are). */
    const char *name;
    char short_name[9];
    uint32_t virtual_address;    /* an RVA in images; 0 in objects */
    uint32_t virtual_size;
    uint32_t characteristics;
    /* The bytes the file holds for the section: [offset, offset + size), inside the file;
     * size 0 when it holds none (uninitialized data). */
    uint64_t offset, size;
} fc_pe_section;

typedef struct fc_pe {
    bool image;           /* a PE image; false: a COFF object (plain or /bigobj) */
    uint16_t machine;     /* IMAGE_FILE_MACHINE_*: 0x8664 x64, 0x14c i386, 0xaa64 ARM64 */
    uint64_t image_base;  /* images: the preferred load address */
    bool pe32_plus;       /* images: 64-bit (PE32+); registration records hold 8-byte pointers */
    /* Images: the import and delay-load import directories (data directories 1 and 13) as
     * the optional header gives them, RVA and size; 0 when it has none. */
    uint32_t import_rva, import_size, delay_import_rva, delay_import_size;
    uint32_t export_rva, export_size; /* the export directory (data directory 0) */
    /* Images: the certificate table (data directory 4: a file offset, not an RVA) a signed
     * image ends with, and where the headers' and sections' bytes end; what lies between is
     * the overlay (a PyInstaller program's archive, pyinstaller.c). */
    uint32_t cert_offset, cert_size;
    uint64_t raw_end;
    fc_pe_section *sections;
    size_t n_sections;
} fc_pe;

/* Which of the two BUF starts like (SIZE bytes, perhaps only the head of a file):
 * FC_FORMAT_PE, FC_FORMAT_COFF, or FC_FORMAT_UNKNOWN. A COFF object has no magic number, so
 * its header is checked for plausibility: a known machine, no optional header, a section
 * table inside the bytes given. */
fc_format fc_pe_sniff(const uint8_t *buf, size_t size);

/* Whether BUF, the first SIZE bytes of a file, may begin a PE image or COFF object whose
 * headers run past them, which fc_pe_sniff cannot tell from these bytes: an MZ header whose
 * PE signature lies beyond them, or a plausible COFF header whose section table does (an
 * object of more than 101 sections, common in C++, outruns a 4 KiB head). The whole file
 * then decides. */
bool fc_pe_head_undecided(const uint8_t *buf, size_t size);

/* Reads the headers and section table of the image or object in BUF. Every offset and size
 * is checked against SIZE; a table of more than MAX_SECTIONS sections is not read
 * (FC_ERR_LIMIT). On success fills *OUT (free with fc_pe_free; its names point into BUF); on
 * failure returns FC_ERR_FORMAT, FC_ERR_LIMIT or FC_ERR_NOMEM and writes the reason to ERR. */
fc_status fc_pe_parse(const uint8_t *buf, size_t size, uint64_t max_sections, fc_pe *out, char *err,
                      size_t err_size);
void fc_pe_free(fc_pe *pe);

/* The file offset of RVA in image PE, and how many of the section's bytes in the file follow
 * it; false when no section holds it in the file. */
bool fc_pe_rva_offset(const fc_pe *pe, uint64_t rva, uint64_t *off, uint64_t *avail);

#endif
