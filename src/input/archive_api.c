/* archive_api.c - loading libarchive and liblzma on first use (see archive_api.h). */
#include <dlfcn.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "archive_api.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static fc_archive_api api;
static bool loaded;
static char failure[256];

/* A zip's headers are read in a UTF-8 locale of this thread's alone (uselocale), whatever
 * the caller's: in the "C" locale, which a program has until it calls setlocale and which the
 * library never changes, libarchive gives no name for a member whose name is flagged UTF-8
 * and is not ASCII, as Python's zipfile writes such names. A wheel's library under "café/"
 * was judged as a member without a name, and the checks that go by names passed over it ("no
 * CUDA code", exit 0, under --strict: review of 2026-12-07, rv41 F1). Only a zip's: in a UTF-8
 * locale libarchive also recomposes names (NFC), and a tar's decomposed name then differed
 * from Go's reading of its bytes (rv42 2). The names are asked for before the locale is put
 * back, so that one libarchive keeps only as wide characters (a Windows zip's backslashes
 * made slashes) is converted there too (rv42 3). Without a UTF-8 locale on the system, the
 * caller's stays. */
static locale_t utf8;
static __typeof__(archive_entry_new) *entry_new;
static __typeof__(archive_entry_free) *entry_free;
static __typeof__(archive_entry_update_pathname_utf8) *entry_update_pathname_utf8;

static int read_next_header_utf8(struct archive *a, struct archive_entry **e)
{
    locale_t prev = utf8 ? uselocale(utf8) : (locale_t)0;
    int r = api.read_next_header(a, e);
    if (r == ARCHIVE_OK || r == ARCHIVE_WARN) {
        (void)api.entry_pathname(*e);
        (void)api.entry_hardlink(*e);
        (void)api.entry_symlink(*e);
    }
    if (prev)
        uselocale(prev);
    return r;
}

/* NAME (LEN bytes of a zip's directory) as read_next_header_utf8 gives a zip member's name:
 * recomposed (NFC) by libarchive's conversion, into OUT; its length, or 0 where it cannot be
 * told (no UTF-8 locale, not UTF-8, no room). */
static size_t name_as_read(const char *name, size_t len, char *out, size_t cap)
{
    char *copy = utf8 ? malloc(len + 1) : NULL;
    struct archive_entry *e = copy ? entry_new() : NULL;
    size_t n = 0;
    if (e) {
        memcpy(copy, name, len);
        copy[len] = '\0';
        locale_t prev = uselocale(utf8);
        const char *got = entry_update_pathname_utf8(e, copy) ? api.entry_pathname(e) : NULL;
        if (got && (n = strlen(got)) < cap)
            memcpy(out, got, n + 1);
        else
            n = 0;
        uselocale(prev);
        entry_free(e);
    }
    free(copy);
    return n;
}

/* The first UTF-8 locale the system has of the usual names. */
static locale_t open_utf8_locale(void)
{
    static const char *const names[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        locale_t l = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
        if (l)
            return l;
    }
    return (locale_t)0;
}

/* Binds *SLOT to SYMBOL; false, with the reason in failure, when it is missing. */
static bool bind(void *lib, const char *symbol, void *slot)
{
    void *f = dlsym(lib, symbol);
    if (!f) {
        snprintf(failure, sizeof failure, "%s lacks %s", strncmp(symbol, "lzma", 4) == 0 ? "liblzma" : "libarchive",
                 symbol);
        return false;
    }
    memcpy(slot, &f, sizeof f); /* object to function pointer, as POSIX allows for dlsym */
    return true;
}

static void load(void)
{
    /* The SONAME every libarchive 3 has; the unversioned name where only -dev is around. */
    void *lib = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libarchive.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(failure, sizeof failure, "cannot load libarchive (libarchive.so.13), which packages need: %s",
                 e ? e : "not found");
        return;
    }
    loaded = bind(lib, "archive_read_new", &api.read_new) && bind(lib, "archive_read_free", &api.read_free) &&
             bind(lib, "archive_read_support_filter_gzip", &api.read_support_filter_gzip) &&
             bind(lib, "archive_read_support_filter_bzip2", &api.read_support_filter_bzip2) &&
             bind(lib, "archive_read_support_filter_zstd", &api.read_support_filter_zstd) &&
             bind(lib, "archive_read_support_filter_lz4", &api.read_support_filter_lz4) &&
             bind(lib, "archive_read_support_filter_compress", &api.read_support_filter_compress) &&
             bind(lib, "archive_read_support_format_zip", &api.read_support_format_zip) &&
             bind(lib, "archive_read_support_format_tar", &api.read_support_format_tar) &&
             bind(lib, "archive_read_support_format_gnutar", &api.read_support_format_gnutar) &&
             bind(lib, "archive_read_support_format_cpio", &api.read_support_format_cpio) &&
             bind(lib, "archive_read_support_format_ar", &api.read_support_format_ar) &&
             bind(lib, "archive_read_support_format_raw", &api.read_support_format_raw) &&
             bind(lib, "archive_read_support_format_empty", &api.read_support_format_empty) &&
             bind(lib, "archive_read_open_fd", &api.read_open_fd) &&
             bind(lib, "archive_read_open_memory", &api.read_open_memory) &&
             bind(lib, "archive_read_open", &api.read_open) &&
             bind(lib, "archive_read_open2", &api.read_open2) &&
             bind(lib, "archive_read_next_header", &api.read_next_header) &&
             bind(lib, "archive_read_data", &api.read_data) &&
             bind(lib, "archive_read_data_block", &api.read_data_block) &&
             bind(lib, "archive_filter_count", &api.filter_count) &&
             bind(lib, "archive_format_name", &api.format_name) &&
             bind(lib, "archive_format", &api.format) &&
             bind(lib, "archive_error_string", &api.error_string) &&
             bind(lib, "archive_errno", &api.error_number) &&
             bind(lib, "archive_set_error", &api.set_error) &&
             bind(lib, "archive_entry_pathname", &api.entry_pathname) &&
             bind(lib, "archive_entry_new", &entry_new) && bind(lib, "archive_entry_free", &entry_free) &&
             bind(lib, "archive_entry_update_pathname_utf8", &entry_update_pathname_utf8) &&
             bind(lib, "archive_entry_filetype", &api.entry_filetype) &&
             bind(lib, "archive_entry_size", &api.entry_size) &&
             bind(lib, "archive_entry_size_is_set", &api.entry_size_is_set) &&
             bind(lib, "archive_entry_hardlink", &api.entry_hardlink) &&
             bind(lib, "archive_entry_symlink", &api.entry_symlink) &&
             bind(lib, "archive_entry_sparse_count", &api.entry_sparse_count) &&
             bind(lib, "archive_entry_sparse_reset", &api.entry_sparse_reset) &&
             bind(lib, "archive_entry_sparse_next", &api.entry_sparse_next) &&
             bind(lib, "archive_filter_bytes", &api.filter_bytes) &&
             bind(lib, "archive_filter_code", &api.filter_code) &&
             bind(lib, "archive_read_header_position", &api.read_header_position);
    if (!loaded)
        return;
    api.read_next_header_utf8 = read_next_header_utf8;
    api.name_as_read = name_as_read;
    utf8 = open_utf8_locale();
    api.utf8_names = utf8 != (locale_t)0;
    /* libarchive depends on liblzma, so it is in the process already. */
    void *lzma = dlopen("liblzma.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!lzma) {
        const char *e = dlerror();
        snprintf(failure, sizeof failure, "cannot load liblzma (liblzma.so.5), which packages need: %s",
                 e ? e : "not found");
        loaded = false;
        return;
    }
    loaded = bind(lzma, "lzma_stream_decoder", &api.lzma_stream_decoder) &&
             bind(lzma, "lzma_alone_decoder", &api.lzma_alone_decoder) &&
             bind(lzma, "lzma_auto_decoder", &api.lzma_auto_decoder) && bind(lzma, "lzma_code", &api.lzma_code) &&
             bind(lzma, "lzma_end", &api.lzma_end);
    /* Never closed: the functions are used until exit. */
}

const fc_archive_api *fc_archive_api_get(const char **why)
{
    pthread_once(&once, load);
    if (!loaded && why)
        *why = failure;
    return loaded ? &api : NULL;
}

bool fc_archive_out_of_memory(const fc_archive_api *la, struct archive *a)
{
    return errno == ENOMEM || la->error_number(a) == ENOMEM;
}
