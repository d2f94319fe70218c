/* elf_header.h - what an ELF header claims, checked against itself before libelf is trusted
 * with it; cubins opened after those checks. */
#ifndef FC_ELF_HEADER_H
#define FC_ELF_HEADER_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fatcheck.h"

/* True when the ELF header at P (SIZE bytes available) cannot be read as it says, with WHY
 * the true reason: EI_CLASS or EI_DATA out of range, or flipped (a 64-bit header marked
 * 32-bit reads as a 32-bit one with no sections at all; a little-endian one marked
 * big-endian, as a section table past the end of the file). Told by the header's own size
 * field (e_ehsize), which each layout keeps in a different place: one that is wrong in
 * every layout (zeros) is left to libelf. */
bool fc_elf_header_problem(const uint8_t *p, uint64_t size, char *why, size_t why_size);

/* For a header with e_machine EM_CUDA (190): true when it is a cubin's, an OS/ABI a CUDA
 * toolchain writes and an SM in e_flags, with *ARCH that SM; false with WHY saying what the
 * file is instead (a host ELF file that claims EM_CUDA is not one "sm_0" image). */
bool fc_elf_cubin_header(const GElf_Ehdr *eh, uint32_t *arch, char *why, size_t why_size);

/* The variant of a cubin of architecture ARCH, from its .note.nv.tkinfo note's bytes P[0..n):
 * it is not in the ELF header (sm_90 and sm_90a cubins have the same e_flags), but ptxas
 * records its command line there ("-arch sm_90a"). */
fc_variant fc_cubin_variant(const uint8_t *p, size_t n, uint32_t arch);

/* The SM a cubin's header names: bits 8-15 of e_flags from ABI version 8 (CUDA 13), the low
 * byte before. */
uint32_t fc_elf_cubin_sm(const GElf_Ehdr *eh);
/* The same from the raw fields: EI_ABIVERSION and e_flags. */
uint32_t fc_cubin_sm_of(uint8_t abi_version, uint32_t e_flags);

/* Calls elf_version once, for every file that uses libelf; false when libelf is too old. */
bool fc_libelf_init(void);
/* Whether libelf's last error on this thread (elf_errno, which it clears) was running out of
 * memory: libelf has no public code for it, only its message (untranslated: fatcheck sets no
 * locale). */
bool fc_libelf_out_of_memory(void);

/* The sections the ELF object at P (N bytes) declares: e_shnum, or under extended numbering
 * section 0's sh_size. 0 for what is not an ELF header, or a table libelf will refuse.
 * libelf sets up a descriptor for every section as soon as an object is opened (elfutils
 * 0.188: a million sections took 250 MiB), so objects are counted before it sees them. */
uint64_t fc_elf_section_count(const uint8_t *p, uint64_t n);
/* Whether the ELF image in memory P (a cubin) declares no more sections than OPTS allow
 * (NULL: the default). */
bool fc_elf_image_sections_ok(const uint8_t *p, size_t n, const fc_options *opts);

/* Opens the cubin IMG (SIZE bytes) with libelf, after what libelf does not check: no more
 * sections than OPTS allow (NULL: the default), the ELF magic, and a header that reads as it
 * says. NULL with *ST FC_ERR_LIMIT or FC_ERR_FORMAT when a check fails or libelf refuses it;
 * the caller ends what it gets with elf_end. */
Elf *fc_elf_cubin_open(const uint8_t *img, size_t size, const fc_options *opts, fc_status *st);

#endif
