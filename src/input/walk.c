/* walk.c - walking directory trees: name order, each inode once, relative to each
 * directory's descriptor (no path length limit), symlinks to directories followed only when
 * asked (the directories left unseen are told to the caller), every entry that cannot be
 * looked at reported. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "inode_map.h"
#include "input.h"
#include "oci_image.h"
#include "survey.h"
#include "walk.h"

/* Files and folders are kept by inode (inode_map.h): symlinks make one file reachable under
 * several names (libcublasLt.so -> libcublasLt.so.13); each is scanned once. The inode's
 * ctime is part of the key: a file deleted in mid-walk leaves its inode to the next one
 * created, which was skipped as seen, a CUDA library replaced so passing unread (review of
 * 2026-12-06, rv17 4). One file changed in mid-walk may be read twice. */
static uint64_t generation(const struct stat *st)
{
    return (uint64_t)st->st_ctim.tv_sec * 1000000000u + (uint64_t)st->st_ctim.tv_nsec;
}

static int set_add(fc_inode_map *s, const struct stat *st)
{
    return fc_inode_map_add(s, st->st_dev, st->st_ino, generation(st), NULL);
}

typedef struct ancestor {
    dev_t dev;
    ino_t ino;
    const char *path;
    const struct ancestor *up;
} ancestor;

/* Symlinks to directories not followed: said when the walk ends, for the directories it
 * never reached by another name. */
typedef struct unfollowed {
    struct { struct stat st; char *path; } *links;
    size_t n, cap;
} unfollowed;

typedef struct walker {
    fc_scan_ctx *sc;
    fc_inode_map files, dirs;
    unfollowed skipped;
    fc_survey *survey; /* listings made beforehand on all threads, or NULL */
    bool layout_read;  /* the root is an image layout, read already (fc_walk) */
} walker;

/* Notes symlink PATH to directory ST, not followed; -1 when out of memory. */
static int note_unfollowed(unfollowed *u, const struct stat *st, const char *path)
{
    void *more = fc_grow(u->links, &u->cap, u->n + 1, sizeof *u->links, 16);
    if (!more)
        return -1;
    u->links = more;
    if (!(u->links[u->n].path = strdup(path)))
        return -1;
    u->links[u->n].st = *st;
    u->n++;
    return 0;
}

/* Tells the caller of each directory reached only through links not followed, once. */
static int say_unfollowed(walker *w)
{
    const fc_options *o = w->sc->opts;
    fc_inode_map said = {NULL, 0, 0};
    int rc = 0;
    for (size_t i = 0; i < w->skipped.n && rc == 0; i++) {
        const struct stat *st = &w->skipped.links[i].st;
        if (fc_inode_map_get(&w->dirs, st->st_dev, st->st_ino, generation(st), NULL))
            continue; /* walked under its own name */
        int added = set_add(&said, st);
        if (added < 0)
            rc = fc_report_error(w->sc, FC_ERR_NOMEM, w->skipped.links[i].path, NULL, "out of memory");
        else if (added && o->on_skip)
            o->on_skip(o->on_skip_ctx, FC_SKIP_SYMLINKED_DIRECTORY, w->skipped.links[i].path);
    }
    fc_inode_map_free(&said);
    return rc;
}

char *fc_path_join_to(char *out, const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    memcpy(out, dir, a);
    size_t k = a;
    if (a && dir[a - 1] != '/')
        out[k++] = '/';
    memcpy(out + k, name, b + 1);
    return out;
}

static char *join(const char *dir, const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    return p ? fc_path_join_to(p, dir, name) : NULL;
}

static int walk_dir(walker *w, int fd, const struct stat *st, const char *path, const ancestor *up, unsigned depth);

/* A folder being walked: open, or, when the survey listed it, opened only when something in
 * it must be looked up there (most folders hold only files the survey has read). */
typedef struct folder {
    int fd;            /* -1 until opened */
    struct folder *up; /* the folder it is opened from, by NAME; NULL when FD is open */
    const char *name, *path;
    dev_t dev;         /* what was found there: another folder found when opening it is said */
    ino_t ino;
    bool failed;       /* could not be opened, which was said */
} folder;

/* F's descriptor, opening it (and those it is opened from) when not yet open; -1 when it
 * cannot be, which is said once (*RC gets what the error callback returned). */
static int folder_fd(walker *w, folder *f, int *rc)
{
    *rc = 0;
    if (f->fd >= 0 || f->failed)
        return f->fd;
    int up = folder_fd(w, f->up, rc);
    if (up < 0) {
        f->failed = true;
        return -1;
    }
    int fd = openat(up, f->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    const char *why = NULL;
    if (fd < 0 || fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (st.st_dev != f->dev || st.st_ino != f->ino)
        why = "it was replaced during the walk";
    if (why) {
        if (fd >= 0)
            close(fd);
        f->failed = true;
        *rc = fc_report_error(w->sc, FC_ERR_IO, f->path, NULL, "cannot open directory: %s", why);
        return -1;
    }
    return f->fd = fd;
}

static int walk_listing(walker *w, folder *f, const char *path, const ancestor *up, unsigned depth,
                        const fc_dir_entry *names, size_t n);

/* Whether folder ST (CHILD) is to be walked now: not one of its own ancestors (a loop, said)
 * and not reached before by another name. When not, *RC gets what a report returned. */
static bool first_visit(walker *w, const struct stat *st, const char *child, bool link, const ancestor *up, int *rc)
{
    *rc = 0;
    /* (A folder that is no link and yet one of its own ancestors is mounted inside itself.) */
    for (const ancestor *a = up; a; a = a->up)
        if (a->dev == st->st_dev && a->ino == st->st_ino) {
            *rc = fc_report_error(w->sc, FC_ERR_IO, child, NULL, "%s loop back to %s, not followed",
                                  link ? "symlink" : "mount", a->path);
            return false;
        }
    int added = set_add(&w->dirs, st);
    if (added < 0)
        *rc = fc_report_error(w->sc, FC_ERR_NOMEM, child, NULL, "out of memory");
    return added > 0; /* 0: reached before through another name */
}

/* Walks child folder NAME of F (CHILD; NOW: its lstat from F) from the survey's unchanged
 * listing LISTED of N entries, without opening it unless something in it must be looked up
 * there. */
static int enter_listed(walker *w, folder *f, const char *name, const char *child, const struct stat *now,
                        const ancestor *up, unsigned depth, const fc_dir_entry *listed, size_t n)
{
    int rc;
    if (!first_visit(w, now, child, false, up, &rc))
        return rc;
    folder me_open = {-1, f, name, child, now->st_dev, now->st_ino, false};
    ancestor me = {now->st_dev, now->st_ino, child, up};
    rc = walk_listing(w, &me_open, child, &me, depth + 1, listed, n);
    if (me_open.fd >= 0)
        close(me_open.fd);
    return rc;
}

/* Opens directory NAME of DIRFD (CHILD for messages; OPENED: already open there, or -1) and
 * walks it, once per directory. A symlink reaches here only with follow_symlinks; a real
 * directory is opened with O_NOFOLLOW, so that one swapped for a link since it was looked at
 * is not followed. */
static int enter(walker *w, int dirfd, const char *name, const char *child, bool link, const ancestor *up,
                 unsigned depth, int opened)
{
    const fc_options *o = w->sc->opts;
    if (depth + 1 > fc_walk_max_depth(o)) {
        if (opened >= 0)
            close(opened);
        return fc_report_error(w->sc, FC_ERR_LIMIT, child, NULL, "deeper than %u directories, not followed",
                               fc_walk_max_depth(o));
    }
    int fd = opened >= 0 ? opened : openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return fc_report_error(w->sc, FC_ERR_IO, child, NULL, "cannot open directory: %s", strerror(e));
    }
    int rc;
    if (!first_visit(w, &st, child, link, up, &rc)) {
        close(fd);
        return rc;
    }
    ancestor me = {st.st_dev, st.st_ino, child, up};
    return walk_dir(w, fd, &st, child, &me, depth + 1);
}

/* Tells the caller's progress that file CHILD was looked at and had nothing to say. */
static void passed(walker *w, const char *child)
{
    if (w->sc->opts->on_file)
        w->sc->opts->on_file(w->sc->opts->on_file_ctx, child);
}

/* File E (CHILD), which the survey read whole and which is still the file ST describes:
 * counted as seen by its inode, and what it said (if anything) told now, as if read here. */
static int told(walker *w, const fc_dir_entry *e, const struct stat *st, const char *child)
{
    int added = set_add(&w->files, st);
    if (added < 0)
        return fc_report_error(w->sc, FC_ERR_NOMEM, child, NULL, "out of memory");
    if (added && e->seen == FC_SEEN_KEPT)
        return fc_survey_tell(w->sc, e);
    if (added)
        passed(w, child);
    return 0;
}

/* Visits entry E of folder F (CHILD: its path, for messages and objects); SYMLINKS_PASS says
 * which pass this is (see walk_listing). Everything is looked up relative to the folder, so
 * that no path length limit applies. */
static int visit(walker *w, folder *f, const fc_dir_entry *e, const char *child, const ancestor *up, unsigned depth,
                 bool symlinks_pass)
{
    const char *name = e->name;
    struct stat lst, st;
    int stat_errno = 0;
    /* A regular file, as readdir says (d_type), whose head shows nothing to read (most files of a
     * tree): passed over without a stat call. It is not added to the files seen: readdir's
     * inode is not always the file's (a bind mount over it, overlayfs), and a wrong one could
     * stand for a CUDA binary met later, which would then be skipped. Another name of the same
     * file has its head read again. A head that shows something, or cannot be read, goes the
     * long way. */
    if (!symlinks_pass && e->type == DT_REG && e->seen == FC_SEEN_NOTHING) {
        passed(w, child);
        return 0;
    }
    /* A folder the survey listed, or a file it read whole, unchanged when it ended (fresh):
     * taken as it was then, with no system call. Its inode is the survey's; a file told was
     * read under this very name. */
    const struct stat *then;
    const fc_dir_entry *listed;
    size_t n;
    if (!symlinks_pass && e->type == DT_DIR && depth + 1 <= fc_walk_max_depth(w->sc->opts) &&
        fc_survey_fresh_listing(e, child, &then, &listed, &n))
        return enter_listed(w, f, name, child, then, up, depth, listed, n);
    if (!symlinks_pass && e->type == DT_REG && (then = fc_survey_fresh_file(e, child)))
        return told(w, e, then, child);
    int rc, dirfd = folder_fd(w, f, &rc);
    if (dirfd < 0)
        return rc;
    /* A folder the survey listed, unchanged since (its lstat now): walked from that listing
     * without being opened. One changed since is opened and listed here. */
    struct stat now;
    if (!symlinks_pass && e->type == DT_DIR && e->seen == FC_SEEN_LISTED && depth + 1 <= fc_walk_max_depth(w->sc->opts) &&
        fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(now.st_mode) &&
        fc_survey_listing(w->survey, &now, child, &listed, &n))
        return enter_listed(w, f, name, child, &now, up, depth, listed, n);
    /* A file the survey read whole, still the one it read (its lstat now): counted as seen by
     * its inode, and what it said (if anything) told now, as if read here. A file replaced,
     * rewritten or cut since, or read under another name (a folder reached through a symlink),
     * is read again here. */
    if (!symlinks_pass && e->type == DT_REG && (e->seen == FC_SEEN_QUIET || e->seen == FC_SEEN_KEPT) &&
        fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && fc_survey_still(e, &now) &&
        (e->seen == FC_SEEN_QUIET || fc_survey_kept_as(e, child)))
        return told(w, e, &now, child);
    if (!symlinks_pass && e->type == DT_REG && e->seen == FC_SEEN_NOT && fc_head_shows_nothing(dirfd, name)) {
        passed(w, child);
        return 0;
    }
    /* A folder, as readdir says: opened at once (O_NOFOLLOW: a real one) without a stat call
     * first. One that does not open goes the long way, which says why. */
    if (!symlinks_pass && e->type == DT_DIR && depth + 1 <= fc_walk_max_depth(w->sc->opts)) {
        int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd >= 0)
            return enter(w, dirfd, name, child, false, up, depth, fd);
    }
    if (fstatat(dirfd, name, &lst, AT_SYMLINK_NOFOLLOW) != 0)
        stat_errno = errno;
    /* An entry of no type from readdir is visited in both passes, and said in the first only.
     * One typed a symlink is visited in the second only: in a folder that can be listed but
     * not searched, its lstat fails too (review of 2026-12-06, rv17 1: a folder of symlinks
     * so passed, exit 0). */
    bool both_passes = e->type == DT_UNKNOWN;
    if (stat_errno)
        return stat_errno == ENOENT || (symlinks_pass && both_passes)
                   ? 0 /* ENOENT: gone since readdir */
                   : fc_report_error(w->sc, FC_ERR_IO, child, NULL, "cannot stat: %s", strerror(stat_errno));
    /* An entry whose type changed since readdir (a link replaced by the file, a file by a
     * link) is taken in the pass it came to: the other would skip it too (rv17 5). */
    bool link = S_ISLNK(lst.st_mode);
    if (both_passes && link != symlinks_pass)
        return 0;
    if (link && fstatat(dirfd, name, &st, 0) != 0) {
        if (errno == ENOENT || errno == ELOOP)
            return 0; /* a dangling link, or links in a circle: no file to read */
        return fc_report_error(w->sc, FC_ERR_IO, child, NULL, "cannot follow symlink: %s", strerror(errno));
    }
    if (!link)
        st = lst;
    if (S_ISDIR(st.st_mode)) {
        /* A symlink to a directory is followed only when asked (-L), as find and ripgrep do:
         * one to / in a checkout, or /proc/N/cwd, would take the walk out of its root. */
        if (link && !w->sc->opts->follow_symlinks)
            return note_unfollowed(&w->skipped, &st, child) == 0
                       ? 0
                       : fc_report_error(w->sc, FC_ERR_NOMEM, child, NULL, "out of memory");
        return enter(w, dirfd, name, child, link, up, depth, -1);
    }
    /* FIFOs, devices and sockets are never opened: a read could block forever. */
    if (!S_ISREG(st.st_mode))
        return 0;
    /* A symlink to a file is read (libfoo.so -> libfoo.so.12 is one file, read once). */
    int added = set_add(&w->files, &st);
    if (added < 0)
        return fc_report_error(w->sc, FC_ERR_NOMEM, child, NULL, "out of memory");
    return added ? fc_scan_file_at(w->sc, dirfd, name, child) : 0;
}

/* Walks the N entries of folder F, named PATH, sorted by name. */
static int walk_listing(walker *w, folder *f, const char *path, const ancestor *up, unsigned depth,
                        const fc_dir_entry *names, size_t n)
{
    int rc = 0, fd;
    /* An OCI image layout is one image: read as one where packages are opened in folders,
     * else passed over as one. Its blobs are no files of its own; what else its folder holds
     * is walked (two marker files hid a folder's libraries, exit 0: review of 2026-12-06, rv17
     * 3). Asked only of a folder that lists the layout's marker: every other folder is spared
     * a stat call. */
    bool layout = depth == 0 && w->layout_read;
    fc_dir_entry marker = {"oci-layout", 0, 0, NULL, NULL};
    if (depth > 0 && n && bsearch(&marker, names, n, sizeof *names, fc_dir_entry_cmp)) {
        if ((fd = folder_fd(w, f, &rc)) < 0)
            return rc;
        if ((layout = fc_oci_dir_is_layout(fd))) {
            const fc_options *o = w->sc->opts;
            if (o->packages_in_dirs)
                rc = fc_oci_scan_dir(w->sc, fd, path);
            else if (o->on_skip)
                o->on_skip(o->on_skip_ctx, FC_SKIP_PACKAGE, path);
        }
    }
    /* Real files and directories first, then symlinks: a link's target in the same tree is
     * then reported under its own name, and the link is skipped as already seen. */
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (names[i].type != DT_UNKNOWN && (names[i].type == DT_LNK) != (pass == 1))
                continue; /* the other pass's */
            if (layout && strcmp(names[i].name, "blobs") == 0)
                continue;
            char *child = join(path, names[i].name);
            if (!child)
                return fc_report_error(w->sc, FC_ERR_NOMEM, path, NULL, "out of memory");
            rc = visit(w, f, &names[i], child, up, depth, pass == 1);
            free(child);
        }
    }
    return rc;
}

/* Walks the directory open on FD (closed here; ST: its stat), named PATH: with the survey's
 * listing when it has one of the folder as it is, else listed here. UP is the directory
 * itself. */
static int walk_dir(walker *w, int fd, const struct stat *st, const char *path, const ancestor *up, unsigned depth)
{
    const fc_dir_entry *listed;
    size_t n = 0;
    int rc = 0;
    folder open = {fd, NULL, NULL, path, st->st_dev, st->st_ino, false};
    if (fc_survey_listing(w->survey, st, path, &listed, &n)) {
        rc = walk_listing(w, &open, path, up, depth, listed, n);
        close(fd);
        return rc;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        int e = errno;
        close(fd);
        return fc_report_error(w->sc, FC_ERR_IO, path, NULL, "cannot open directory: %s", strerror(e));
    }
    fc_dir_entry *names = NULL;
    size_t cap = 0;
    struct dirent *de;
    for (;;) {
        errno = 0;
        if ((de = readdir(d)) == NULL)
            break;
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        fc_dir_entry *p = fc_grow(names, &cap, n + 1, sizeof *p, 64);
        if (!p) {
            rc = fc_report_error(w->sc, FC_ERR_NOMEM, path, NULL, "out of memory");
            goto cleanup;
        }
        names = p;
        names[n] = (fc_dir_entry){strdup(de->d_name), de->d_type, FC_SEEN_NOT, NULL, NULL};
        if (!names[n].name) {
            rc = fc_report_error(w->sc, FC_ERR_NOMEM, path, NULL, "out of memory");
            goto cleanup;
        }
        n++;
    }
    if (errno) { /* what was listed is still walked */
        rc = fc_report_error(w->sc, FC_ERR_IO, path, NULL, "cannot read directory: %s", strerror(errno));
        if (rc)
            goto cleanup;
    }
    if (n) /* qsort's array may not be NULL, even empty */
        qsort(names, n, sizeof *names, fc_dir_entry_cmp);
    rc = walk_listing(w, &open, path, up, depth, names, n);
cleanup:
    closedir(d);
    for (size_t i = 0; i < n; i++)
        free(names[i].name);
    free(names);
    return rc;
}

int fc_walk(fc_scan_ctx *sc, const char *path, bool layout_read)
{
    walker w = {sc, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, NULL, layout_read};
    bool named = sc->named;
    sc->named = false;
    int rc;
    /* The root is named by the caller: a symlink to it is followed. */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat root;
    if (fd < 0 || fstat(fd, &root) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        rc = fc_report_error(sc, FC_ERR_IO, path, NULL, "cannot open directory: %s", strerror(e));
    } else if (set_add(&w.dirs, &root) < 0) {
        close(fd);
        rc = fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
    } else {
        ancestor top = {root.st_dev, root.st_ino, path, NULL};
        /* A descriptor of its own: a duplicate would share the folder's read offset, and the
         * survey's reading to the end would leave the walk nothing to list (review 4, F1). */
        int survey_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (survey_fd >= 0)
            w.survey = fc_survey_run(sc, survey_fd, path);
        /* The root's times now, after the survey, are what its listing is checked against:
         * those taken before it would not show a file added or renamed in the root meanwhile
         * (review 5, G2). Without them, the walk lists the root itself. */
        if (w.survey && fstat(fd, &root) != 0) {
            fc_survey_free(w.survey);
            w.survey = NULL;
        }
        rc = walk_dir(&w, fd, &root, path, &top, 0);
        if (rc == 0)
            rc = say_unfollowed(&w);
    }
    sc->named = named;
    fc_survey_free(w.survey);
    fc_inode_map_free(&w.files);
    fc_inode_map_free(&w.dirs);
    for (size_t i = 0; i < w.skipped.n; i++)
        free(w.skipped.links[i].path);
    free(w.skipped.links);
    return rc;
}
