/* zip_end.h - whether a zip's bytes end with its end-of-central-directory record.
 *
 * libarchive reads a zip from a file by its central directory, found through the record that
 * ends it; a zip without one (cut short) it reads from the front instead, member by member,
 * and stops at the first central directory header: a zip cut inside its central directory, or
 * before the record, reads as whole, though pip, unzip and Python's zipfile refuse it. */
#ifndef FC_ZIP_END_H
#define FC_ZIP_END_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The record and the longest comment it may carry, and a zip64 locator's 20 bytes before it:
 * what is kept of the end. */
#define FC_ZIP_TAIL (20u + 22u + 0xffffu)
/* Whether the last FC_ZIP_RECORD_TAIL bytes of a file of TOTAL bytes (TAIL: its last N bytes, N
 * at least that many where the file is) hold a zip's end record whose directory fits before the
 * file's end: how a directory walk tells a #! script that ends with a zip (a self-extracting
 * installer) from one that does not, and an image's layer the same. */
#define FC_ZIP_RECORD_TAIL (22u + 4096u)
bool fc_zip_record_in_tail(const uint8_t *tail, size_t n, uint64_t total);

/* Whether the last N bytes of a zip of TOTAL bytes, TAIL (N at most FC_ZIP_TAIL), hold a
 * whole end-of-central-directory record whose central directory ends where it begins. */
bool fc_zip_end_ok(const uint8_t *tail, size_t n, uint64_t total);

/* Whether DATA, a whole file of SIZE bytes, is a zip by its end, as libarchive's seekable
 * reader finds one with bytes before it (a zipapp's #! line, a self-extracting stub): its last
 * end-of-central-directory record ends the file (its comment runs exactly to the end), on disk
 * 0 with every entry there, and the central directory ends where that record (or the zip64 end
 * record its locator names) begins and starts with a central directory header, or is empty.
 * The directory's offset may count from the zip's start (cat stub x.zip) or the file's (zip -A).
 * "PK\5\6" met elsewhere, or a record that leaves bytes after it, is no zip. */
bool fc_zip_ends_file(const uint8_t *data, uint64_t size);

/* The zip64 extended information field (0x0001) in the EXTRA bytes of length N: the values of
 * the fields given as 0xffffffff, in order (VALS, COUNT of them), replaced. False when it is
 * missing or short. */
bool fc_zip64_values(const uint8_t *extra, size_t n, uint64_t **vals, size_t count);

/* A byte range of a file. */
typedef struct fc_zip_range {
    uint64_t offset, size;
} fc_zip_range;

/* The central directory Python's zipfile, and so pip, reads a zip by: [START, END) of the
 * file, and BASE, what its offsets are short of the file's (the bytes before the zip). */
typedef struct fc_zip_directory {
    uint64_t start, end;
    uint64_t base; /* added to each member's offset, modulo 2^64 (zipfile's concat, which may be below 0) */
} fc_zip_directory;

/* Whether DATA (SIZE bytes) has one, found as zipfile finds it: the last end-of-central-
 * directory record signature within reach of the end (its comment may run past the end or
 * stop short of it: bytes appended after a zip leave one zipfile reads), the zip64 end record
 * just before its locator where there is one there, else the record's own values (disk numbers
 * and entry counts are not looked at); the directory ends where that record begins and starts
 * with a central directory header, or is empty. Its entries are walked by its size. */
bool fc_zip_directory_of(const uint8_t *data, uint64_t size, fc_zip_directory *d);

/* Whether Info-ZIP's unzip goes by another central directory than zipfile: zipfile takes the
 * zip64 end record just before its locator (fc_zip_directory_of); unzip 6.0 passes over one that
 * a field of the end record, neither all ones nor equal, or a locator's disk count other than
 * one, disagrees with, and goes by the end record's offset and size (rv36 F1: those named the
 * library's directory, the zip64 record an empty one; unzip extracted the library). */
bool fc_zip64_unzip_goes_elsewhere(const uint8_t *data, uint64_t size);

/* Whether DATA (SIZE bytes) has a central directory zipfile reads (fc_zip_directory_of). */
bool fc_zip_has_end(const uint8_t *data, uint64_t size);

/* Whether that directory lists a member: an end record of no member in bytes appended to a
 * program (an empty zip's 22 bytes, or a stray record) is no zip to read them as, and hid
 * them, "no CUDA code" even under --strict (review of 2026-12-07, rv25 1). */
bool fc_zip_has_members(const uint8_t *data, uint64_t size);

/* For DATA of SIZE bytes that is a zip by its end (fc_zip_has_end): the ranges no member's
 * data covers, in order (*N of them), which a zip reader passes over: a stub before the zip
 * (a script, a program, a model blob), bytes between members, before the central directory,
 * the directory, the end record's comment and what follows it, by the directory zipfile reads
 * (fc_zip_directory_of; zip64's sizes and offsets from their extra fields). *ENTRIES, its
 * members. Where it has no member, or its layout does not hold together, all of it is one
 * range (*ENTRIES 0 only for none): a caller that searches these ranges then searches
 * everything, rather than miss containers kept there. Allocated (free()); NULL when out of
 * memory. */
fc_zip_range *fc_zip_uncovered(const uint8_t *data, uint64_t size, unsigned *entries, size_t *n);

/* Whether HEAD (N bytes) starts a zip that does not start with a local header, and so is told
 * by its end (fc_zip_ends_file) once held whole: a zipapp's (python -m zipapp, shiv, pex: a #!
 * line, then the first local header), or one behind Info-ZIP's spanning marker "PK00", which
 * pip and Python's zipfile read. */
bool fc_zip_behind_head(const uint8_t *head, size_t n);

#endif
