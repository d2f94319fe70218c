/* ar_name.h - the name of a static archive member, read from its header as it is written.
 *
 * libelf reads GNU long names ("/123", an offset into the "//" table) with atol, so "/1x"
 * names whatever follows offset 1, and an unterminated table gives an empty name; it does
 * not know BSD names ("#1/20": the name is the first 20 bytes of the member), so those
 * members' ELF files are not found. Names are read here instead, and a reference that
 * does not lead to a name is said, not papered over.
 */
#ifndef FC_AR_NAME_H
#define FC_AR_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FC_AR_HEADER 60u

typedef enum fc_ar_name_kind {
    FC_AR_NAME_PLAIN,   /* in the header: "name/" (GNU, System V) or space-padded (BSD) */
    FC_AR_NAME_TABLE,   /* the symbol table ("/", "/SYM64/") or the long-name table ("//") */
    FC_AR_NAME_LONG,    /* "/N": from the long-name table */
    FC_AR_NAME_BSD,     /* "#1/N": the first N bytes of the member */
    FC_AR_NAME_BAD,     /* a reference that leads to no name: *why says why */
} fc_ar_name_kind;

/* Reads the name of the member whose header is HDR (FC_AR_HEADER bytes), whose data (SIZE
 * bytes, the size its header gives) is DATA. NAMES (NAMES_SIZE bytes; NULL when the archive
 * has none, or it has not come yet) is the long-name table. Writes the name to OUT (for
 * FC_AR_NAME_BAD, the header's name field as it is, with WHY saying why it leads nowhere);
 * for BSD names, *SKIP gets how many bytes of the member's data the name takes (else 0). */
fc_ar_name_kind fc_ar_member_name(const uint8_t *hdr, const uint8_t *data, uint64_t size, const uint8_t *names,
                                  uint64_t names_size, char *out, size_t out_size, uint64_t *skip, char *why,
                                  size_t why_size);

#endif
