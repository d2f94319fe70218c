/* torch_ext.c - PyTorch's JIT extension cache: where it is, and which library of each
 * extension PyTorch would load.
 *
 * torch.utils.cpp_extension builds into $TORCH_EXTENSIONS_DIR/<name>/ when that is set,
 * else ${XDG_CACHE_HOME:-~/.cache}/torch_extensions/py<major><minor>[flags]_cu<ver>/<name>/
 * ("cpu" instead of cu<ver> for CPU builds), as <name>.so, or <name>_v<N>.so after
 * rebuilds within one process (../shared/docs/targets.md).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callback.h"
#include "fatcheck.h"
#include "grow.h"

/* PyTorch's cache folder as the folder *UNDER names and the path *BELOW it ("" or
 * "/torch_extensions"), which the environment can make as long as it likes. As Python reads
 * them (review of 2026-12-05, rt8 finding 1): a variable set empty is set ('' is not None for
 * TORCH_EXTENSIONS_DIR; os.getenv's default is for an unset XDG_CACHE_HOME only), so both name
 * the current folder; and expanduser takes a HOME that is unset from the password database,
 * not '.'. HOME_BUF (SIZE bytes) holds that home. */
static void default_dir(const char **under, const char **below, char *home_buf, size_t size)
{
    const char *dir = getenv("TORCH_EXTENSIONS_DIR");
    const char *cache = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (dir) {
        *under = *dir ? dir : ".", *below = "";
        return;
    }
    if (cache) {
        *under = *cache ? cache : ".", *below = "/torch_extensions";
        return;
    }
    *below = "/.cache/torch_extensions";
    if (home) {
        *under = home; /* "" as Python has it: "/.cache/torch_extensions" */
        return;
    }
    struct passwd pw, *found = NULL;
    char buf[4096];
    if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &found) == 0 && found && found->pw_dir)
        snprintf(home_buf, size, "%s", found->pw_dir);
    else
        snprintf(home_buf, size, "."); /* as before: no home known at all */
    *under = home_buf;
}

const char *fc_torch_extensions_default_dir(char *buf, size_t size)
{
    const char *under, *below;
    char home[4096];
    default_dir(&under, &below, home, sizeof home);
    snprintf(buf, size, "%s%s", under, below);
    return buf;
}

/* What is said of a path longer than PATH_MAX (the size of fc_torch_extension's paths):
 * no call can open it, and its extension is not judged. */
#define TOO_LONG "the path is longer than PATH_MAX (4096 bytes) and cannot be opened: not judged"

/* DIR/NAME into OUT (SIZE bytes); false when it does not fit. Every path here is built by it,
 * so that a path cut short is never looked at in place of the one meant. */
static bool joined(char *out, size_t size, const char *dir, const char *name)
{
    int w = snprintf(out, size, "%s/%s", dir, name);
    return w >= 0 && (size_t)w < size;
}

/* "py312_cu130" -> Python "3.12", build "cu130", CUDA 13000; false if it is not one. PyTorch
 * names the folder py<major><minor><sys.abiflags>: "py313t_cu128" is a free-threaded 3.13
 * ("3.13t"), whose extensions a 3.13 with the GIL cannot load, nor the other way round. */
static bool parse_version_folder(const char *name, fc_torch_extension *ext)
{
    if (strncmp(name, "py", 2) != 0 || !isdigit((unsigned char)name[2]) || !isdigit((unsigned char)name[3]))
        return false;
    const char *p = name + 2;
    size_t digits = strspn(p, "0123456789");
    if (digits < 2 || digits > 3)
        return false;
    size_t flags = strspn(p + digits, "abcdefghijklmnopqrstuvwxyz");
    if (flags > 4 || p[digits + flags] != '_')
        return false;
    const char *underscore = p + digits + flags;
    snprintf(ext->python, sizeof ext->python, "%c.%.*s%.*s", p[0], (int)digits - 1, p + 1, (int)flags, p + digits);
    snprintf(ext->build, sizeof ext->build, "%s", underscore + 1);
    ext->cuda = 0;
    if (strncmp(ext->build, "cu", 2) == 0 && strspn(ext->build + 2, "0123456789") == strlen(ext->build + 2) &&
        strlen(ext->build + 2) >= 2) {
        int v = atoi(ext->build + 2);
        ext->cuda = v / 10 * 1000 + v % 10 * 10; /* cu130 -> 13.0, cu118 -> 11.8 */
    } else if (strcmp(ext->build, "cpu") != 0) {
        return false;
    }
    return true;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* What could not be read (a folder that could not be listed, a library that is no file, a
 * path too long to open): the first said in ERR, the others counted (rt8 finding 10: they went
 * unnamed and uncounted; the API returns one error), and the status to return once the others
 * are reported: nothing is passed over unsaid. */
typedef struct unread {
    char *err;
    size_t err_size;
    int status;
    size_t more;
} unread;

/* Whether this is the first thing U notes (said in ERR), or one more (counted). */
static bool first_noted(unread *u)
{
    if (!u->status)
        return true;
    u->more++;
    return false;
}

static void note_unread(unread *u, const char *dir, int e)
{
    if (!first_noted(u))
        return;
    u->status = e == ENOMEM ? FC_ERR_NOMEM : FC_ERR_IO;
    snprintf(u->err, u->err_size, "%s: cannot list the folder: %s", dir, strerror(e));
}

static void note_not_file(unread *u, const char *library)
{
    if (!first_noted(u))
        return;
    u->status = FC_ERR_IO;
    snprintf(u->err, u->err_size, "%s: the extension's library is no regular file (a dangling link?): not judged",
             library);
}

/* DIR/NAME, too long to be joined: said, as the folder that cannot be listed is. */
static void note_too_long(unread *u, const char *dir, const char *name)
{
    if (!first_noted(u))
        return;
    u->status = FC_ERR_IO;
    snprintf(u->err, u->err_size, "%s/%s: " TOO_LONG, dir, name);
}

/* The library PyTorch loads from an extension folder into OUT: <name>.so. PyTorch numbers a
 * rebuild <name>_v<N>.so only within the process that rebuilt it (its ExtensionVersioner
 * counts in memory, from 0 in every process), so a new process loads, or rebuilds, <name>.so;
 * the newest <name>_v<N>.so is taken only where there is no <name>.so. 1 when there is one, 0
 * when none, minus the errno when the folder cannot be listed, and SAID when the one chosen
 * cannot be judged, said in U: it is no regular file, a dangling link, a folder (red-team
 * review of 2026-12-03: such a folder was passed over unsaid), or its path is too long to
 * open. */
#define SAID 2
static int pick_library(const char *dir, const char *name, char *out, size_t size, unread *u)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
    long best = -1;
    size_t n = strlen(name);
    struct dirent *de;
    char file[sizeof de->d_name] = "";
    while ((de = readdir(d)) != NULL) {
        const char *f = de->d_name;
        long version = -1;
        if (strncmp(f, name, n) != 0)
            continue;
        if (strcmp(f + n, ".so") == 0) {
            version = LONG_MAX; /* <name>.so before any <name>_v<N>.so */
        } else if (strncmp(f + n, "_v", 2) == 0) {
            char *end;
            long v = strtol(f + n + 2, &end, 10);
            if (end != f + n + 2 && strcmp(end, ".so") == 0 && v > 0 && v < LONG_MAX)
                version = v;
        }
        if (version > best) {
            best = version;
            snprintf(file, sizeof file, "%s", f);
        }
    }
    closedir(d);
    if (best < 0)
        return 0;
    if (!joined(out, size, dir, file)) {
        note_too_long(u, dir, file);
        return SAID;
    }
    if (!is_file(out)) {
        note_not_file(u, out);
        return SAID;
    }
    return 1;
}

/* Whether NAME in the open folder D is a folder: 1 or 0, or minus the errno when that cannot
 * be told (a folder that may be listed but not entered). Asked of the folder itself, not by
 * a path, which may be too long to use: the folder is then said when it is joined. */
static int folder_or_not(DIR *d, const char *name)
{
    struct stat st;
    if (fstatat(dirfd(d), name, &st, 0) == 0)
        return S_ISDIR(st.st_mode);
    return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : -errno;
}

/* The folders in DIR, sorted, into *OUT (N of them). 0, or the errno of what failed: the
 * folder could not be opened or read, or memory ran out (*OUT then holds nothing). */
static int sorted_subdirs(const char *dir, char ***out, size_t *n)
{
    DIR *d = opendir(dir);
    *out = NULL;
    *n = 0;
    if (!d)
        return errno;
    size_t cap = 0;
    struct dirent *de;
    int err = 0;
    for (;;) {
        errno = 0;
        if (!(de = readdir(d))) {
            err = errno;
            break;
        }
        if (de->d_name[0] == '.')
            continue;
        int kind = folder_or_not(d, de->d_name);
        if (kind < 0) {
            err = -kind;
            break;
        }
        if (!kind)
            continue;
        char **p = fc_grow(*out, &cap, *n + 1, sizeof *p, 16);
        char *name = p ? strdup(de->d_name) : NULL;
        if (!name) {
            err = ENOMEM;
            if (p)
                *out = p;
            break;
        }
        *out = p;
        (*out)[(*n)++] = name;
    }
    closedir(d);
    if (err) {
        for (size_t i = 0; i < *n; i++)
            free((*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
        return err;
    }
    for (size_t i = 1; i < *n; i++) /* insertion sort: a few dozen names */
        for (size_t j = i; j > 0 && strcmp((*out)[j - 1], (*out)[j]) > 0; j--) {
            char *t = (*out)[j];
            (*out)[j] = (*out)[j - 1];
            (*out)[j - 1] = t;
        }
    return 0;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Reports every extension folder under DIR (a version folder, or TORCH_EXTENSIONS_DIR). */
static int scan_extensions(const char *dir, const fc_torch_extension *version, fc_torch_ext_fn fn, void *ctx,
                           size_t *found, unread *u, bool beside_versions)
{
    char **names;
    size_t n;
    int e = sorted_subdirs(dir, &names, &n);
    if (e) {
        note_unread(u, dir, e);
        return 0;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        fc_torch_extension ext = *version, scratch;
        if (beside_versions && parse_version_folder(names[i], &scratch)) /* scanned as one already */
            continue;
        snprintf(ext.name, sizeof ext.name, "%s", names[i]);
        if (!joined(ext.dir, sizeof ext.dir, dir, names[i])) {
            note_too_long(u, dir, names[i]);
            continue;
        }
        int picked = pick_library(ext.dir, ext.name, ext.library, sizeof ext.library, u);
        if (picked < 0)
            note_unread(u, ext.dir, -picked);
        if (picked != 1)
            continue; /* a folder whose build failed, or that is not an extension, or said */
        (*found)++;
        rc = fc_callback_value(fn(ctx, &ext));
    }
    free_names(names, n);
    return rc;
}

int fc_torch_extensions(const char *dir, fc_torch_ext_fn fn, void *ctx, char *err, size_t err_size)
{
    /* DIR, or the default folder, as BASE: a path too long for it is said, not cut. */
    const char *under = dir, *below = "";
    char home[4096];
    if (!dir)
        default_dir(&under, &below, home, sizeof home);
    char base[4096];
    if (strlen(under) + strlen(below) >= sizeof base) {
        snprintf(err, err_size, "%s%s: " TOO_LONG, under, below);
        return FC_ERR_IO;
    }
    snprintf(base, sizeof base, "%s%s", under, below);
    if (!is_dir(base)) {
        snprintf(err, err_size, "%s: no torch extension cache there", base);
        return FC_ERR_IO;
    }
    fc_torch_extension none;
    memset(&none, 0, sizeof none);
    size_t found = 0;
    int rc = 0;
    unread u = {err, err_size, 0, 0};
    size_t len = strlen(base);
    while (len > 1 && base[len - 1] == '/')
        base[--len] = '\0';
    const char *leaf = strrchr(base, '/');
    leaf = leaf ? leaf + 1 : base;
    fc_torch_extension version = none;
    char library[4096];
    int picked;
    if (parse_version_folder(leaf, &version)) {
        rc = scan_extensions(base, &version, fn, ctx, &found, &u, false); /* a version folder */
    } else if ((picked = pick_library(base, leaf, library, sizeof library, &u)) == SAID) {
        /* its library cannot be judged: said in u */
    } else if (picked > 0) {
        fc_torch_extension ext = none; /* one extension's folder */
        const char *up = base + (leaf - base) - 1;
        char parent[4096];
        snprintf(parent, sizeof parent, "%.*s", (int)(up - base), base);
        const char *pleaf = strrchr(parent, '/');
        parse_version_folder(pleaf ? pleaf + 1 : parent, &ext);
        snprintf(ext.name, sizeof ext.name, "%.255s", leaf); /* a folder name: NAME_MAX */
        snprintf(ext.dir, sizeof ext.dir, "%s", base);
        snprintf(ext.library, sizeof ext.library, "%s", library);
        found = 1;
        rc = fc_callback_value(fn(ctx, &ext));
    } else {
        /* The cache root: version folders inside, or (TORCH_EXTENSIONS_DIR) extensions. */
        char **names;
        size_t n;
        int e = sorted_subdirs(base, &names, &n);
        if (e)
            note_unread(&u, base, e);
        for (size_t i = 0; i < n && rc == 0; i++) {
            fc_torch_extension v = none;
            if (!parse_version_folder(names[i], &v))
                continue;
            char sub[4096];
            if (!joined(sub, sizeof sub, base, names[i])) {
                note_too_long(&u, base, names[i]);
                continue;
            }
            rc = scan_extensions(sub, &v, fn, ctx, &found, &u, false);
        }
        free_names(names, n);
        /* Extensions beside the version folders too: with TORCH_EXTENSIONS_DIR set to a cache
         * that runs without it had filled, PyTorch builds and loads DIR/<name>/<name>.so, and
         * only the version folders were judged: exit 0 without the library that runs (rt8
         * finding 1). A version folder holds no library of its own name, and is passed over. */
        if (rc == 0 && !e)
            rc = scan_extensions(base, &none, fn, ctx, &found, &u, true);
    }
    if (rc == 0 && u.status && u.more) {
        size_t at = strlen(err);
        snprintf(err + at, err_size - at, "; and %zu more folder%s or librar%s that cannot be judged", u.more,
                 u.more == 1 ? "" : "s", u.more == 1 ? "y" : "ies");
    }
    if (rc == 0 && u.status)
        return u.status; /* ERR says which folder, and how many more */
    if (rc == 0 && !found) {
        snprintf(err, err_size, "%s: no built torch extension there", base);
        return FC_ERR_IO;
    }
    return rc;
}

int fc_torch_extension_stale(const fc_torch_extension *x, const char *python, int torch_cuda)
{
    if (!x || !python || !python[0] || !x->python[0])
        return -1;
    if (strcmp(x->python, python) != 0)
        return 1;
    return torch_cuda >= 0 && x->cuda != torch_cuda;
}
