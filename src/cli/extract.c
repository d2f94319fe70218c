/* extract.c - --extract DIR: every cubin, PTX and LTO-IR image, decompressed, written to
 * DIR under the name cuobjdump -xelf/-xptx gives it (images cuobjdump does not list get a
 * name of the same shape that says where they were). Every image written gets a name of its
 * own: a name taken earlier in the run gets a suffix, and one longer than DIR allows is
 * shortened. Existing files are never overwritten without --force, and with it are replaced
 * by renaming a new file over them; no name from an input can leave DIR: names are reduced
 * to one path component, and files are created relative to DIR, never opened if they exist. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract.h"

/* A name that needs a suffix gets "-2", "-3"... before its extension; a name longer than
 * DIR takes keeps the start of its stem, a hash of the whole stem, and its tail. */
#define HASH_CHARS 9 /* "~" and eight hex digits */

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

/* Whether NAME was written in this run; with ADD, records it (false when out of memory). */
static bool name_taken(name_set *set, const char *name, bool add, bool *no_memory)
{
    if (add && (set->n + 1) * 2 > set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 256;
        char **slots = calloc(cap, sizeof *slots);
        if (!slots) {
            *no_memory = true;
            return false;
        }
        for (size_t i = 0; i < set->cap; i++) {
            if (!set->slots[i])
                continue;
            size_t k = (size_t)hash(set->slots[i]) & (cap - 1);
            while (slots[k])
                k = (k + 1) & (cap - 1);
            slots[k] = set->slots[i];
        }
        free(set->slots);
        set->slots = slots;
        set->cap = cap;
    }
    if (!set->cap)
        return false;
    size_t k = (size_t)hash(name) & (set->cap - 1);
    for (; set->slots[k]; k = (k + 1) & (set->cap - 1))
        if (strcmp(set->slots[k], name) == 0)
            return true;
    if (add) {
        if (!(set->slots[k] = strdup(name))) {
            *no_memory = true;
            return false;
        }
        set->n++;
    }
    return false;
}

int extractor_open(extractor *x, const char *dir, bool force, uint64_t limit, FILE *err)
{
    memset(x, 0, sizeof *x);
    x->dir = dir;
    x->force = force;
    x->limit = limit;
    x->err = err;
    x->dirfd = -1;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(err, "fatcheck: %s: cannot create: %s\n", quoted(dir), strerror(errno));
        return -1;
    }
    x->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (x->dirfd < 0) {
        fprintf(err, "fatcheck: %s: cannot open directory: %s\n", quoted(dir), strerror(errno));
        return -1;
    }
    long max = fpathconf(x->dirfd, _PC_NAME_MAX);
    x->name_max = max >= 32 && max < 4096 ? (size_t)max : 255;
    return 0;
}

void extractor_close(extractor *x)
{
    fprintf(x->err, "fatcheck: wrote %zu image%s to %s", x->written, x->written == 1 ? "" : "s", quoted(x->dir));
    if (x->renamed)
        fprintf(x->err, "; %zu given a suffix (-2, -3...) because an image before had the same name", x->renamed);
    if (x->skipped)
        fprintf(x->err, "; %zu obfuscated LTO-IR image%s left out (only NVIDIA's tools read %s)", x->skipped,
                x->skipped == 1 ? "" : "s", x->skipped == 1 ? "it" : "them");
    fputc('\n', x->err);
    if (x->dirfd >= 0)
        close(x->dirfd);
    x->dirfd = -1;
    for (size_t i = 0; i < x->taken.cap; i++)
        free(x->taken.slots[i]);
    free(x->taken.slots);
    x->taken = (name_set){0};
}

void extractor_begin_input(extractor *x)
{
    x->n_elf = x->n_ptx = x->n_other = 0;
}

/* Bytes for one path component: nothing but printable ASCII, no '/'. */
static void sanitize(char *name)
{
    for (char *p = name; *p; p++)
        if (*p == '/' || (unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e)
            *p = '_';
}

static const char *extension(fc_image_kind k)
{
    return k == FC_IMAGE_CUBIN ? "cubin" : k == FC_IMAGE_PTX ? "ptx" : k == FC_IMAGE_LTOIR ? "ltoir" : "bin";
}

/* STEM, TAIL (".N.ARCH.cubin") and the Nth suffix (none for 1) as one file name within
 * MAX bytes: a stem too long keeps its start and gets a hash of the whole stem. */
static void compose(char *out, size_t size, const char *stem, const char *tail, unsigned n, size_t max)
{
    char suffix[16] = "";
    if (n > 1)
        snprintf(suffix, sizeof suffix, "-%u", n);
    const char *dot = strrchr(tail, '.');
    size_t before = dot ? (size_t)(dot - tail) : strlen(tail);
    size_t rest = strlen(tail) + strlen(suffix), keep = strlen(stem);
    if (keep + rest > max) {
        keep = max > rest + HASH_CHARS ? max - rest - HASH_CHARS : 0;
        snprintf(out, size, "%.*s~%08x%.*s%s%s", (int)keep, stem, (unsigned)(hash(stem) & 0xffffffffu), (int)before,
                 tail, suffix, tail + before);
    } else {
        snprintf(out, size, "%s%.*s%s%s", stem, (int)before, tail, suffix, tail + before);
    }
    if (out[0] == '.') /* never a hidden file, never "." or ".." */
        out[0] = '_';
}

/* The first of NAME, NAME-2, NAME-3... not written in this run, recorded as taken. */
static int unique_name(extractor *x, const char *stem, const char *tail, char *out, size_t size)
{
    bool no_memory = false;
    for (unsigned n = 1; n < 100000; n++) {
        compose(out, size, stem, tail, n, x->name_max);
        if (!name_taken(&x->taken, out, true, &no_memory) && !no_memory) {
            x->renamed += n > 1;
            return 0;
        }
        if (no_memory)
            break;
    }
    fprintf(x->err, "fatcheck: %s: %s\n", quoted(x->dir), no_memory ? "out of memory" : "no free name");
    return -1;
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Writes a new file NAME in DIR. Without --force an existing NAME is an error. With it, the
 * data goes to a new temporary file that is then renamed over NAME: nothing already in DIR
 * is ever opened, so a FIFO cannot block and a hard link to a file elsewhere is replaced, not
 * written through; what is not a regular file is left alone. */
static int write_file(extractor *x, const char *name, const void *data, size_t len)
{
    const char *dir = quoted(x->dir);
    char tmp[64];
    const char *target = name;
    if (x->force) {
        struct stat st;
        if (fstatat(x->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(x->err, "fatcheck: %s/%s: exists and is not a regular file; not replaced\n", dir, name);
            return -1;
        }
        target = tmp;
    }
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        if (x->force) /* starts with '.': never an image's name */
            snprintf(tmp, sizeof tmp, ".fatcheck-%ld-%u.tmp", (long)getpid(), x->temporaries++);
        fd = openat(x->dirfd, target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && (errno != EEXIST || !x->force))
            break;
    }
    if (fd < 0) {
        if (errno == EEXIST && !x->force)
            fprintf(x->err, "fatcheck: %s/%s: exists; not overwritten (--force overwrites)\n", dir, name);
        else
            fprintf(x->err, "fatcheck: %s/%s: cannot create: %s\n", dir, name, strerror(errno));
        return -1;
    }
    int failed = write_all(fd, data, len);
    int e = errno;
    if (close(fd) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    if (!failed && x->force && renameat(x->dirfd, tmp, x->dirfd, name) != 0) {
        fprintf(x->err, "fatcheck: %s/%s: cannot replace: %s\n", dir, name, strerror(errno));
        unlinkat(x->dirfd, tmp, 0);
        return -1;
    }
    if (failed) {
        fprintf(x->err, "fatcheck: %s/%s: write error: %s\n", dir, name, strerror(e));
        unlinkat(x->dirfd, target, 0); /* a file this run created, half written */
        return -1;
    }
    return 0;
}

int extract_object(extractor *x, const fc_object *o, const fc_judgement *kernels_read, int *bad_input)
{
    int failures = 0;
    if (!o->image || o->format == FC_FORMAT_PTX)
        return 0; /* a PTX file is its own image */
    for (size_t c = 0; c < o->n_containers; c++) {
        const fc_container *ct = &o->containers[c];
        bool listed = cuobjdump_lists(o, ct);
        for (size_t i = 0; i < ct->n_entries; i++) {
            const fc_entry *e = &ct->entries[i];
            char stem[4096], tail[160], name[4400];
            if (listed && (e->kind == FC_IMAGE_CUBIN || e->kind == FC_IMAGE_PTX)) {
                cuobjdump_name_parts(o, e, e->kind == FC_IMAGE_PTX ? ++x->n_ptx : ++x->n_elf, stem, sizeof stem,
                                     tail, sizeof tail);
            } else {
                char arch[32];
                path_stem(o->path, stem, sizeof stem);
                /* where it was: the section (at most 64 bytes of its name), else what */
                const char *where = ct->section ? ct->section + (ct->section[0] == '.')
                                    : ct->origin == FC_ORIGIN_EMBEDDED_CUBIN ? "cubin" : "fatbin";
                snprintf(tail, sizeof tail, ".%.64s.%u.%s.%s", where, ++x->n_other,
                         fc_entry_arch_name(arch, sizeof arch, e), extension(e->kind));
            }
            sanitize(stem);
            sanitize(tail);
            compose(name, sizeof name, stem, tail, 1, SIZE_MAX); /* for messages */
            if (e->obfuscated) { /* nothing but NVIDIA's own tools can read it */
                x->skipped++;
                continue;
            }
            if (e->payload_offset > o->size || e->stored_size > o->size - e->payload_offset) {
                fprintf(x->err, "fatcheck: %s: image %s lies outside the file\n", quoted(o->label), name);
                *bad_input = 1;
                continue;
            }
            void *data = NULL;
            size_t len = 0;
            fc_status st = fc_decompress(&data, &len,
                                         e->compression, (const char *)o->image + e->payload_offset, (size_t)e->stored_size, e->uncompressed_size, x->limit);
            const fc_kernel_list *kl;
            fc_status read = kernels_read ? fc_judgement_kernels(&kl, kernels_read, c, i) : FC_OK;
            bool said = read != FC_OK && read != FC_ERR_UNSUPPORTED;
            /* FC_ERR_IO: the file changed under the scan, which the scan reports once. */
            if (st != FC_OK && (said || st == FC_ERR_IO)) {
                *bad_input = 1;
                continue;
            }
            if (st != FC_OK) {
                fprintf(x->err, "fatcheck: %s: offset 0x%llx: image %s could not be decompressed: %s\n",
                        quoted(o->label), (unsigned long long)e->offset, name,
                        st == FC_ERR_LIMIT ? "larger than the decompression limit" : fc_status_name(st));
                *bad_input = 1;
                continue;
            }
            if (e->kind == FC_IMAGE_PTX) /* PTX stored as is is padded with NULs */
                while (len && ((const char *)data)[len - 1] == '\0')
                    len--;
            if (unique_name(x, stem, tail, name, sizeof name) == 0 && write_file(x, name, data, len) == 0)
                x->written++;
            else
                failures++;
            free(data);
        }
    }
    return failures;
}
