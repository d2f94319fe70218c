/* elf_compressed.h - registered sections stored compressed in the file (SHF_COMPRESSED, or
 * GNU's ".z" names).
 *
 * Linkers never compress a loaded section, and the CUDA runtime reads .nv_fatbin as it lies
 * in memory, so such a file's fat binaries cannot be loaded as they are. Read as stored they
 * only showed "no fat binary magic"; they are decompressed here (libelf's elf_compress and
 * elf_compress_gnu, zstd through libzstd where this libelf knows only zlib), under the
 * caller's decompression limit, and what they hold is handed out as an object of its own:
 * its offsets count from the start of the decompressed section, which is its image.
 */
#ifndef FC_ELF_COMPRESSED_H
#define FC_ELF_COMPRESSED_H

#include <gelf.h>

#include "input.h"

/* True when the section NAME with header SH is a registered section stored compressed. */
bool fc_elf_compressed_fatbin(const char *name, const GElf_Shdr *sh);

/* Decompresses the registered section NAME stored as RAW (RAW_SIZE bytes, checked to lie in
 * the file) in an ELF file of class IS64 (GNU: the ".z" form, else SHF_COMPRESSED), the file
 * PATH or its archive member MEMBER, and hands what it holds to the scan's callback as the
 * object "PATH(NAME)" or "PATH(MEMBER(NAME))". Nothing is written to RAW. Returns the
 * callback's value. */
int fc_elf_scan_compressed(fc_scan_ctx *sc, const uint8_t *raw, uint64_t raw_size, bool is64, bool gnu,
                           const char *name, const char *path, const char *member);

#endif
