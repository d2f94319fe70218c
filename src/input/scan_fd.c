/* scan_fd.c - scanning what a descriptor holds: standard input, a pipe, a socket.
 *
 * A pipe, and a regular file not at its start, is read once, in order. A package is read through libarchive as its bytes arrive
 * (package.c); anything else is held whole (fc_hold: in memory up to 64 MiB, beyond that in
 * an unlinked temporary file, up to opts->max_member_size) and scanned like a file.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode.h"
#include "fatcheck.h"
#include "input.h"
#include "stream.h"

static int scan_stream(fc_scan_ctx *sc, int fd, const char *name)
{
    fc_fd_stream in;
    fc_fd_stream_init(&in, fd);
    uint8_t head[4096];
    ssize_t n = fc_stream_fill(&in.s, head, sizeof head);
    if (n < 0)
        return fc_report_error(sc, FC_ERR_IO, name, NULL, "%s", in.s.error);
    fc_stream_unread(&in.s, head, (size_t)n);
    if (sc->opts->on_file)
        sc->opts->on_file(sc->opts->on_file_ctx, name);
    bool archive;
    if (fc_sniff(head, (size_t)n, &archive) == FC_FORMAT_UNKNOWN && fc_sniff_package(head, (size_t)n))
        return fc_scan_package_stream(sc, &in.s, name);
    fc_held held;
    char why[300];
    fc_status st = fc_hold(&in.s, 0, sc->opts->max_member_size, &held, why, sizeof why);
    if (st != FC_OK)
        return fc_report_error(sc, st, name, NULL, "%s", why);
    int rc = fc_scan_image(sc, &held.img, name);
    fc_held_free(&held);
    return rc;
}

int fc_scan_fd(int fd, const char *name, const fc_options *opts, fc_object_fn on_object, fc_error_fn on_error,
               void *ctx)
{
    fc_options defaults;
    if (fd < 0 || !(opts = fc_options_resolve(opts, &defaults)))
        return FC_ERR_INVALID;
    if (!name)
        name = "(standard input)";
    fc_scan_ctx sc = {.opts = opts, .on_object = on_object, .on_error = on_error, .user = ctx, .named = true};
    struct stat st;
    int rc;
    if (fstat(fd, &st) != 0)
        rc = fc_report_error(&sc, FC_ERR_IO, name, NULL, "cannot stat: %s", strerror(errno));
    else if (S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0)
        rc = fc_scan_open_file(&sc, fd, name);
    else if (S_ISREG(st.st_mode))
        /* Read from where it stands, as cat and tar -f - read it: the bytes before were the
         * caller's, and judging them with the rest judged another file (review of 2026-12-05,
         * rt8 finding 7). */
        rc = scan_stream(&sc, fd, name);
    else if (S_ISDIR(st.st_mode))
        rc = fc_report_error(&sc, FC_ERR_IO, name, NULL, "is a directory");
    else
        rc = scan_stream(&sc, fd, name);
    fc_scan_ctx_end(&sc);
    return rc;
}
