/* ar_index.h - what a static archive's own tables say it holds, to tell one cut short.
 *
 * libelf walks an archive member by member and stops, without an error, where the bytes end:
 * an archive cut at a member boundary reads as whole. Two tables written before the members
 * list members that come later: the symbol table ("/", "/SYM64/"), the offset of every member
 * that defines a symbol; GNU's long-name table ("//"), the name of every member whose name
 * does not fit its header. A member either lists that the archive does not hold proves a cut.
 * BSD archives (llvm-ar --format=bsd or darwin, Apple's ar and ranlib) have no long-name table;
 * their symbol table is the member "__.SYMDEF" (or "__.SYMDEF SORTED", "__.SYMDEF_64"), its
 * ranlib entries each holding a member offset. A member of neither (no global symbols, a short
 * name) cut off cannot be told, nor can any in an archive with neither table (ar rcS, llvm-ar
 * rcS, or a .deb's outer ar, which package.c checks).
 */
#ifndef FC_AR_INDEX_H
#define FC_AR_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* The member offsets a symbol table lists, as GNU ld reads them: it goes to the member header
 * at the offset listed for a symbol it needs, not member by member, so an object the walk does
 * not meet (inside another member's bytes, or inside a table) is linked all the same. */
typedef struct fc_ar_offsets {
    const uint8_t *first;  /* the first offset */
    uint64_t count;
    unsigned width;        /* bytes of an offset: 4 or 8 */
    unsigned stride;       /* bytes from one offset to the next */
    bool big;              /* big-endian */
} fc_ar_offsets;
/* Of a symbol table: DATA, SIZE bytes, the member named "/" (WIDE false: a 32-bit big-endian
 * count, then as many 32-bit big-endian offsets; GNU, System V, and the first linker member of
 * a Windows .lib) or "/SYM64/" (WIDE: the same in 64 bits). False when its count does not fit
 * it: nothing is proved by it. */
bool fc_ar_symtab_offsets(const uint8_t *data, uint64_t size, bool wide, fc_ar_offsets *out);
/* The highest offset T lists; false when it lists none. */
bool fc_ar_offsets_last(const fc_ar_offsets *t, uint64_t *last);
/* Of a BSD one (__.SYMDEF..., WIDE _64) read in byte order BIG, as GNU ld reads it (in its
 * target's order, whether or not the table holds together): false when its ranlib array does
 * not fit it so. */
bool fc_ar_symdef_offsets(const uint8_t *data, uint64_t size, bool wide, bool big, fc_ar_offsets *out);
uint64_t fc_ar_offset_at(const fc_ar_offsets *t, uint64_t i);

/* The highest member offset a BSD symbol table lists: DATA, SIZE bytes, the member
 * "__.SYMDEF" or "__.SYMDEF SORTED" (WIDE false: a 32-bit size in bytes of the ranlib array,
 * the array of {32-bit string index, 32-bit member offset}, a 32-bit size of the string table,
 * the strings) or "__.SYMDEF_64" (WIDE: the same in 64 bits), in the archive AR of AR_SIZE
 * bytes. llvm-ar writes it little-endian, Apple's tools in the target's byte order: the order
 * in which the table holds together (its parts fit the member, and the offsets inside the
 * archive lead to member headers) is taken. False when it lists no offset, holds together in
 * neither order or in both: nothing is proved. */
bool fc_ar_symdef_last(const uint8_t *data, uint64_t size, bool wide, const uint8_t *ar, uint64_t ar_size,
                       uint64_t *last);

/* Where the last name of a long-name table (NAMES, SIZE bytes; names end with "/\n", "\n" or,
 * in Windows .lib files, a NUL) starts, and the name (without its "/") in OUT, cut to fit.
 * False when the table holds no name. */
bool fc_ar_names_last(const uint8_t *names, uint64_t size, uint64_t *last, char *out, size_t out_size);

#endif
