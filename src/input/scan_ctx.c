/* scan_ctx.c - what a scan gives every reader of an input (ELF, PE, packages, images, walks):
 * names for objects and errors, error reports that know when the file changed underneath,
 * objects handed to the caller, and the end of the scan's helper threads. The dispatcher
 * (scan.c) calls down into the readers; the readers call these, never the dispatcher. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "callback.h"
#include "decode.h"
#include "file_map.h"
#include "input.h"
#include "pool.h"

bool fc_name_make(const fc_scan_ctx *sc, const char *path, const char *ar_member, fc_name *out)
{
    memset(out, 0, sizeof *out);
    out->path = sc->outer ? sc->outer : path;
    const char *inner = sc->outer ? sc->inner : NULL;
    size_t n = (inner ? strlen(inner) : 0) + (ar_member ? strlen(ar_member) : 0) + 3;
    if (inner || ar_member) {
        if (!(out->member = malloc(n)))
            return false;
        if (inner && ar_member)
            snprintf(out->member, n, "%s(%s)", inner, ar_member);
        else
            snprintf(out->member, n, "%s", inner ? inner : ar_member);
    }
    size_t l = strlen(out->path) + n + 2;
    if (!(out->label = malloc(l))) {
        fc_name_free(out);
        return false;
    }
    if (inner && sc->image_labels)
        snprintf(out->label, l, "%s", out->member); /* "app:1.0:/usr/lib/x.so" */
    else if (inner)
        snprintf(out->label, l, "%s!%s", out->path, out->member);
    else if (ar_member)
        snprintf(out->label, l, "%s(%s)", out->path, ar_member);
    else
        snprintf(out->label, l, "%s", out->path);
    return true;
}

char *fc_member_chain(const char *prefix, const char *entry)
{
    size_t n = (prefix ? strlen(prefix) + 1 : 0) + strlen(entry) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", prefix ? prefix : "", prefix ? "!" : "", entry);
    return s;
}

bool fc_member_enter(fc_scan_ctx *sc, fc_member_scope *m, const char *path, const char *member, uint64_t size)
{
    *m = (fc_member_scope){sc->outer, sc->inner, NULL};
    if (!member)
        return true;
    if (!(m->chain = fc_member_chain(sc->outer ? sc->inner : NULL, member)))
        return false;
    if (!sc->outer) { /* the outermost package, as package.c's scan_source counts it */
        fc_unpacked_start(sc, size, false);
        sc->outer = path;
    }
    sc->inner = m->chain;
    return true;
}

void fc_member_leave(fc_scan_ctx *sc, fc_member_scope *m)
{
    sc->outer = m->outer;
    sc->inner = m->inner;
    free(m->chain);
    m->chain = NULL;
}

void fc_name_free(fc_name *n)
{
    free(n->member);
    free(n->label);
    n->member = n->label = NULL;
}

bool fc_builder_start(fc_scan_ctx *sc, fc_builder *b, const char *path, const char *ar_member, int *rc)
{
    fc_name name;
    fc_status st = FC_ERR_NOMEM;
    if (fc_name_make(sc, path, ar_member, &name)) {
        st = fc_builder_init(b, sc->opts, name.path, name.member, name.label);
        fc_name_free(&name);
    }
    if (st == FC_OK)
        return true;
    *rc = fc_report_error(sc, FC_ERR_NOMEM, path, ar_member, "out of memory");
    return false;
}

bool fc_file_changed(const fc_scan_ctx *sc, char *why, size_t size)
{
    const fc_open_file *f = sc->file;
    if (!f)
        return false;
    struct stat now;
    bool known = fstat(f->fd, &now) == 0;
    if ((known && now.st_size < f->at_open.st_size) || fc_file_map_changed(&f->map)) {
        snprintf(why, size, "the file changed while being read: it ended early (%lld bytes when opened, %lld now)",
                 (long long)f->at_open.st_size, known ? (long long)now.st_size : -1ll);
        return true;
    }
    if (known && (now.st_size != f->at_open.st_size || now.st_mtim.tv_sec != f->at_open.st_mtim.tv_sec ||
                  now.st_mtim.tv_nsec != f->at_open.st_mtim.tv_nsec)) {
        snprintf(why, size, "the file changed while being read (it was modified during the scan)");
        return true;
    }
    return false;
}

/* "LABEL: REASON", on the heap, so that a path of any length leaves the reason whole (review of
 * 2026-12-06, rv17 6: past 4.6 KB the reason was cut off); in FALLBACK, cut, when out of
 * memory. To free() when not FALLBACK. */
static char *label_reason(const char *label, const char *reason, char *fallback, size_t size)
{
    size_t n = strlen(label) + strlen(reason) + 3;
    char *msg = malloc(n);
    if (!msg) {
        msg = fallback;
        n = size;
    }
    snprintf(msg, n, "%s: %s", label, reason);
    return msg;
}

int fc_report_change(fc_scan_ctx *sc, const char *why)
{
    char fallback[4096 + 300];
    sc->file->change_reported = true;
    char *msg = label_reason(sc->file->path, why, fallback, sizeof fallback);
    fc_error err = {FC_ERR_IO, sc->file->path, NULL, msg};
    int rc = sc->on_error ? fc_callback_value(sc->on_error(sc->user, &err)) : 0;
    if (msg != fallback)
        free(msg);
    return rc;
}

/* Says REASON (FMT, AP) of PATH (MEMBER) to the caller: as an error of STATUS, or as a warning
 * (FC_ERR_FORMAT) to opts->on_warning, which, when unset, has it go to on_error as one. */
static int report(fc_scan_ctx *sc, fc_status status, bool warning, const char *path, const char *member,
                  const char *fmt, va_list ap)
{
    char why[200];
    if (status == FC_ERR_NOMEM)
        sc->short_of_memory = true;
    if (sc->file && sc->file->change_reported)
        return 0; /* an echo of the change, said already */
    if (fc_file_changed(sc, why, sizeof why))
        return fc_report_change(sc, why);
    bool to_warning = warning && sc->opts->on_warning;
    if (!to_warning)
        sc->errors++;
    /* The reason may hold a path or a member's name, of any length (review of 2026-12-06, rv18
     * 4: "symlink loop back to" a long path lost "not followed"). */
    char short_reason[512], fallback[4096 + 600];
    va_list again;
    va_copy(again, ap);
    int need = vsnprintf(short_reason, sizeof short_reason, fmt, ap);
    char *reason = short_reason, *longer;
    if (need >= (int)sizeof short_reason && (longer = malloc((size_t)need + 1))) {
        vsnprintf(longer, (size_t)need + 1, fmt, again);
        reason = longer; /* else cut, short of memory */
    }
    va_end(again);
    fc_name name;
    if (!fc_name_make(sc, path, member, &name)) {
        if (reason != short_reason)
            free(reason);
        return sc->on_error ? fc_callback_value(sc->on_error(sc->user, &(fc_error){FC_ERR_NOMEM, path, member,
                                                                                  "out of memory"}))
                            : 0;
    }
    char *msg = label_reason(name.label, reason, fallback, sizeof fallback);
    fc_error err = {warning ? FC_ERR_FORMAT : status, name.path, name.member, msg};
    int rc = to_warning     ? fc_callback_value(sc->opts->on_warning(sc->opts->on_warning_ctx, &err))
             : sc->on_error ? fc_callback_value(sc->on_error(sc->user, &err))
                            : 0;
    if (msg != fallback)
        free(msg);
    if (reason != short_reason)
        free(reason);
    fc_name_free(&name);
    return rc;
}

int fc_report_error(fc_scan_ctx *sc, fc_status status, const char *path, const char *member,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = report(sc, status, false, path, member, fmt, ap);
    va_end(ap);
    return rc;
}

int fc_report_warning(fc_scan_ctx *sc, const char *path, const char *member, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = report(sc, FC_ERR_FORMAT, true, path, member, fmt, ap);
    va_end(ap);
    return rc;
}

/* Whether OBJ's bytes lie in F's mapping (or it has none): what stays readable while a kept
 * object waits to be told. */
static bool in_mapping(const fc_open_file *f, const fc_object *obj)
{
    const uint8_t *p = obj->image;
    if (!p || !obj->size)
        return true;
    return f && f->map.data && p >= f->map.data && (size_t)(p - f->map.data) <= f->map.size &&
           obj->size <= f->map.size - (size_t)(p - f->map.data);
}

int fc_deliver(fc_scan_ctx *sc, fc_builder *b)
{
    int rc = 0;
    char why[200];
    /* A failure whose message could not be written (no memory for it) is still said: the
     * object is not "no CUDA code" (review 4, F3). */
    if (b->obj.status != FC_OK && !b->obj.error) {
        const char *path = b->obj.path ? b->obj.path : sc->file ? sc->file->path : "(unknown)";
        rc = fc_report_error(sc, b->obj.status, path, b->obj.member, "%s", fc_status_name(b->obj.status));
    }
    /* Files found in a directory are reported only when they hold CUDA code (or were
     * damaged); a file the caller named is always reported; so is one with bytes appended
     * that were not read (an AppImage, a PyInstaller program), wherever it was found
     * (review 8, B2: in a walk, an image or a package it passed unsaid), and, when the
     * caller fails what was not seen, one searched only in part that showed no CUDA code. */
    bool wanted = b->obj.n_containers || b->obj.error || (sc->named && !b->obj.member) ||
                  b->obj.format == FC_FORMAT_IMAGE || b->obj.appended_size ||
                  (sc->opts->report_searched_in_part && b->obj.sections_searched_in_part);
    /* One without CUDA code that names a CUDA library still needs a driver that starts that
     * runtime (red-team review of 2026-12-04: named, "none" on a CUDA 12.4 driver; found in a
     * walk, a package or an image, passed over), or that is one (libcudart.so.13 in a wheel of
     * its own): delivered for its runtime's judgement, and
     * not counted as an object found (an archive or package holding only such files is still
     * "no CUDA code"). */
    bool runtime_only = !wanted && (b->n_needed || b->obj.soname || b->obj.static_runtime) && b->obj.status == FC_OK;
    b->obj.runtime_only = runtime_only;
    if (runtime_only) { /* all it says is in B: a walk need not keep its file mapped until told */
        b->obj.image = NULL;
        b->obj.image_reclaimable = false;
    }
    if (sc->in_image && !b->obj.in_image)
        b->obj.in_image = sc->in_image;
    /* What was read from a file that changed meanwhile is told by the change, whatever else
     * went wrong (reads past the new end gave zeros). An archive's members are many: for
     * them only a fault in the mapping is looked for here, and the check at the end of the
     * file (or the walk's failure on the next member) reports a cut that raised none. */
    fc_open_file *f = sc->file;
    if (wanted && f && b->obj.image_reclaimable && !f->change_reported &&
        (!b->obj.member || fc_file_map_changed(&f->map)) && fc_file_changed(sc, why, sizeof why)) {
        f->change_reported = true;
        free((char *)b->obj.error);
        b->obj.error = NULL;
        fc_builder_fail(b, FC_ERR_IO, "%s", why);
    }
    const fc_object *obj = fc_builder_finish(b);
    if ((wanted || runtime_only) && rc == 0) {
        sc->delivered += wanted;
        if (sc->keep && !in_mapping(f, &b->obj)) {
            sc->unkeepable = true; /* judged later, it would read freed bytes */
        } else if (sc->keep) {
            sc->kept |= wanted;
            sc->keep(sc->user, b); /* B is left empty */
        } else {
            rc = sc->on_object ? fc_callback_value(sc->on_object(sc->user, obj)) : 0;
        }
    }
    fc_builder_reset(b);
    return rc;
}

int fc_deliver_no_code(fc_scan_ctx *sc, const char *path, fc_format format, uint64_t size)
{
    fc_builder b;
    if (fc_builder_init(&b, sc->opts, path, NULL, NULL) != FC_OK) {
        fc_builder_reset(&b);
        return fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
    }
    b.obj.format = format;
    b.obj.size = size;
    return fc_deliver(sc, &b);
}

bool fc_appended_zip(fc_scan_ctx *sc, fc_builder *b, uint64_t offset, uint64_t size, const char *path)
{
    b->obj.appended_offset = offset; /* said whatever its size */
    b->obj.appended_size = size - offset;
    b->obj.appended_zip = true;
    /* Opened where a directory walk's packages would be, and where packages are being opened:
     * in a file named (a static archive's member too), or inside a package; inside an image,
     * whose files are looked at as a walk's are, with --packages. */
    if (sc->named || sc->archive_named || sc->opts->packages_in_dirs || (sc->outer && !sc->in_image)) {
        b->obj.appended_size = 0;
        return true;
    }
    if (sc->opts->on_skip)
        sc->opts->on_skip(sc->opts->on_skip_ctx, FC_SKIP_PACKAGE, path);
    return false;
}

void fc_scan_ctx_end(fc_scan_ctx *sc)
{
    fc_pool_free(sc->pool);
    sc->pool = NULL;
}
