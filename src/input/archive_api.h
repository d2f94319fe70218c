/* archive_api.h - libarchive and liblzma, loaded the first time a package is opened.
 *
 * Linked in, libarchive brings libxml2, ICU and libstdc++ into every run: 1.2 ms and
 * 3.3 MiB before the first file is opened (measured on the dev machine), although most runs
 * never see a package. So it is loaded with dlopen when one is. liblzma, which libarchive
 * needs anyway, is loaded with it: xz streams are decoded by fatcheck itself, under a memory
 * limit that libarchive does not set (package.c). */
#ifndef FC_ARCHIVE_API_H
#define FC_ARCHIVE_API_H

#include <archive.h>
#include <archive_entry.h>
#include <lzma.h>
#include <stdbool.h>

typedef struct fc_archive_api {
    __typeof__(archive_read_new) *read_new;
    __typeof__(archive_read_free) *read_free;
    __typeof__(archive_read_support_filter_gzip) *read_support_filter_gzip;
    __typeof__(archive_read_support_filter_bzip2) *read_support_filter_bzip2;
    __typeof__(archive_read_support_filter_zstd) *read_support_filter_zstd;
    __typeof__(archive_read_support_filter_lz4) *read_support_filter_lz4;
    __typeof__(archive_read_support_filter_compress) *read_support_filter_compress;
    __typeof__(archive_read_support_format_zip) *read_support_format_zip;
    __typeof__(archive_read_support_format_tar) *read_support_format_tar;
    __typeof__(archive_read_support_format_gnutar) *read_support_format_gnutar;
    __typeof__(archive_read_support_format_cpio) *read_support_format_cpio;
    __typeof__(archive_read_support_format_ar) *read_support_format_ar;
    __typeof__(archive_read_support_format_raw) *read_support_format_raw;
    __typeof__(archive_read_support_format_empty) *read_support_format_empty;
    __typeof__(archive_read_open_fd) *read_open_fd;
    __typeof__(archive_read_open_memory) *read_open_memory;
    __typeof__(archive_read_open) *read_open;
    __typeof__(archive_read_open2) *read_open2;
    __typeof__(archive_read_next_header) *read_next_header;
    /* As read_next_header, for a zip: its names read in a UTF-8 locale (archive_api.c), where
     * UTF8_NAMES says the system has one. */
    __typeof__(archive_read_next_header) *read_next_header_utf8;
    bool utf8_names;
    /* A zip directory's name (LEN bytes) as read_next_header_utf8 gives it, into OUT (CAP
     * bytes): its length, or 0 where it cannot be told. */
    size_t (*name_as_read)(const char *name, size_t len, char *out, size_t cap);
    __typeof__(archive_read_data) *read_data;
    __typeof__(archive_read_data_block) *read_data_block;
    __typeof__(archive_filter_count) *filter_count;
    __typeof__(archive_format_name) *format_name;
    __typeof__(archive_format) *format;
    __typeof__(archive_error_string) *error_string;
    __typeof__(archive_errno) *error_number;
    __typeof__(archive_set_error) *set_error;
    __typeof__(archive_entry_pathname) *entry_pathname;
    __typeof__(archive_entry_filetype) *entry_filetype;
    __typeof__(archive_entry_size) *entry_size;
    __typeof__(archive_entry_size_is_set) *entry_size_is_set;
    __typeof__(archive_entry_hardlink) *entry_hardlink;
    __typeof__(archive_entry_symlink) *entry_symlink;
    __typeof__(archive_entry_sparse_count) *entry_sparse_count;
    __typeof__(archive_entry_sparse_reset) *entry_sparse_reset;
    __typeof__(archive_entry_sparse_next) *entry_sparse_next;
    __typeof__(archive_filter_bytes) *filter_bytes;
    __typeof__(archive_filter_code) *filter_code;
    __typeof__(archive_read_header_position) *read_header_position;
    /* liblzma */
    __typeof__(lzma_stream_decoder) *lzma_stream_decoder;
    __typeof__(lzma_alone_decoder) *lzma_alone_decoder;
    __typeof__(lzma_auto_decoder) *lzma_auto_decoder;
    __typeof__(lzma_code) *lzma_code;
    __typeof__(lzma_end) *lzma_end;
} fc_archive_api;

/* The functions, or NULL when libarchive or liblzma cannot be loaded; *WHY then says why.
 * Loads once; safe to call from any thread. */
const fc_archive_api *fc_archive_api_get(const char **why);

/* Whether the call on A that just failed, errno cleared before it, failed for want of memory:
 * libarchive says so (archive_errno), or errno does where libarchive said nothing (its 3.6 tar
 * reader when a name cannot grow) or called it something else ("gzip decompression failed").
 * Such a failure is no damaged input (oom_cli). */
bool fc_archive_out_of_memory(const fc_archive_api *la, struct archive *a);

#endif
