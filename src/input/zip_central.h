/* zip_central.h - whether a zip's central directory and its local headers say the same.
 *
 * A member is described twice: by the local header before its data and by its entry in the
 * central directory. pip (Python's zipfile) and unzip take the compression method and the
 * sizes from the central directory, and only the name's and extra field's lengths from the
 * local header; libarchive, reading the file, takes the method and the sizes from the local
 * header. Where the two disagree, the bytes fatcheck judges are not those pip installs: a
 * member whose local header says stored and whose directory entry says deflated reads as a
 * blob of deflate data here and installs as the library it inflates to. */
#ifndef FC_ZIP_CENTRAL_H
#define FC_ZIP_CENTRAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether DATA, a whole zip of SIZE bytes (bytes before it allowed, as fc_zip_ends_file and
 * zip_end.h take them), has a member whose central directory entry and local header disagree
 * on the compression method, the CRC-32 or the sizes (the last two unless the local header
 * defers them to a data descriptor, flag bit 3), or whose entry names no local header; or whose
 * directory lists a member that is not among the READ members libarchive gave, by their NAMES
 * (one for one; NULL: by their count alone). When so, WHY (of WHY_SIZE bytes) says which member
 * and how. The directory is the one Python's zipfile reads (fc_zip_directory_of); a zip without
 * one is no concern of this check (zip_end.h says so). */
/* NAME (LEN bytes, a directory entry's, not ASCII) as the reader of NAMES gives names: into
 * OUT (CAP bytes), its length; 0 to compare it as it is. */
typedef size_t (*fc_zip_name_form)(const char *name, size_t len, char *out, size_t cap);
/* FORM, when not NULL, says how NAMES were given (libarchive recomposes UTF-8 names: rv42). */
bool fc_zip_headers_disagree(const uint8_t *data, uint64_t size, size_t read, const char *const *names,
                             fc_zip_name_form form, char *why, size_t why_size);

#endif
