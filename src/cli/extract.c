/* extract.c - --extract DIR: every cubin, PTX and LTO-IR image, decompressed, written to
 * DIR under the name cuobjdump -xelf/-xptx gives it (images cuobjdump does not list get a
 * name of the same shape that says where they were). Existing files are never overwritten
 * without --force, and no name from an input can leave DIR: names are reduced to one
 * path component, and files are opened relative to DIR without following links. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract.h"

int extractor_open(extractor *x, const char *dir, bool force, uint64_t limit, FILE *err)
{
    memset(x, 0, sizeof *x);
    x->dir = dir;
    x->force = force;
    x->limit = limit;
    x->err = err;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(err, "fatcheck: %s: cannot create: %s\n", dir, strerror(errno));
        return -1;
    }
    x->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (x->dirfd < 0) {
        fprintf(err, "fatcheck: %s: cannot open directory: %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}

void extractor_close(extractor *x)
{
    if (x->dirfd >= 0)
        close(x->dirfd);
    x->dirfd = -1;
}

void extractor_begin_input(extractor *x)
{
    x->n_elf = x->n_ptx = x->n_other = 0;
}

/* One path component: no '/', no leading '.', nothing but printable ASCII. */
static void sanitize(char *name)
{
    for (char *p = name; *p; p++)
        if (*p == '/' || (unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e)
            *p = '_';
    if (name[0] == '.')
        name[0] = '_';
    if (!name[0])
        strcpy(name, "_");
}

static const char *extension(fc_image_kind k)
{
    return k == FC_IMAGE_CUBIN ? "cubin" : k == FC_IMAGE_PTX ? "ptx" : k == FC_IMAGE_LTOIR ? "ltoir" : "bin";
}

static int write_file(extractor *x, const char *name, const void *data, size_t len)
{
    int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (x->force ? O_TRUNC : O_EXCL);
    int fd = openat(x->dirfd, name, flags, 0644);
    if (fd < 0) {
        if (errno == EEXIST)
            fprintf(x->err, "fatcheck: %s/%s: exists; not overwritten (--force overwrites)\n", x->dir, name);
        else
            fprintf(x->err, "fatcheck: %s/%s: cannot create: %s\n", x->dir, name, strerror(errno));
        return -1;
    }
    const char *p = data;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            fprintf(x->err, "fatcheck: %s/%s: write error: %s\n", x->dir, name, strerror(errno));
            close(fd);
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    if (close(fd) != 0) {
        fprintf(x->err, "fatcheck: %s/%s: write error: %s\n", x->dir, name, strerror(errno));
        return -1;
    }
    return 0;
}

int extract_object(extractor *x, const fc_object *o, int *bad_input)
{
    int failures = 0;
    if (!o->image || o->format == FC_FORMAT_PTX)
        return 0; /* a PTX file is its own image */
    for (size_t c = 0; c < o->n_containers; c++) {
        const fc_container *ct = &o->containers[c];
        bool listed = cuobjdump_lists(o, ct);
        for (size_t i = 0; i < ct->n_entries; i++) {
            const fc_entry *e = &ct->entries[i];
            char name[4400];
            if (listed && (e->kind == FC_IMAGE_CUBIN || e->kind == FC_IMAGE_PTX)) {
                cuobjdump_name(o, e, e->kind == FC_IMAGE_PTX ? ++x->n_ptx : ++x->n_elf, name, sizeof name);
            } else {
                char stem[4096], arch[32], where[256];
                path_stem(o->path, stem, sizeof stem);
                snprintf(where, sizeof where, "%s", ct->section ? ct->section + (ct->section[0] == '.') : "fatbin");
                snprintf(name, sizeof name, "%s.%s.%u.%s.%s", stem, where, ++x->n_other,
                         fc_entry_arch_name(e, arch, sizeof arch), extension(e->kind));
            }
            sanitize(name);
            if (e->obfuscated) { /* nothing but NVIDIA's own tools can read it */
                x->skipped++;
                continue;
            }
            if (e->payload_offset > o->size || e->stored_size > o->size - e->payload_offset) {
                fprintf(x->err, "fatcheck: %s: image %s lies outside the file\n", o->label, name);
                *bad_input = 1;
                continue;
            }
            void *data = NULL;
            size_t len = 0;
            fc_status st = fc_decompress(e->compression, (const char *)o->image + e->payload_offset,
                                         (size_t)e->stored_size, e->uncompressed_size, x->limit, &data, &len);
            if (st != FC_OK) {
                fprintf(x->err, "fatcheck: %s: offset 0x%llx: image %s could not be decompressed: %s\n", o->label,
                        (unsigned long long)e->offset, name,
                        st == FC_ERR_LIMIT ? "larger than the decompression limit" : fc_status_name(st));
                *bad_input = 1;
                continue;
            }
            if (e->kind == FC_IMAGE_PTX) /* PTX stored as is is padded with NULs */
                while (len && ((const char *)data)[len - 1] == '\0')
                    len--;
            if (write_file(x, name, data, len) == 0)
                x->written++;
            else
                failures++;
            free(data);
        }
    }
    return failures;
}
