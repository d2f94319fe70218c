/* oci.h - container images: reading layers, the filesystem they make, and the archives and
 * layouts that hold them (oci_layer.c, oci_fs.c, oci_image.c).
 *
 * An image is read in two steps. First each layer is read once, start to end, on one of the
 * scan's threads (layers are independent streams): what it adds, deletes and links is listed,
 * and every file that holds CUDA code is held (fc_hold) for later. Then the layers are applied
 * in order (oci_fs.c), and the files the container sees are scanned and handed out, each once,
 * named by their path in the image. A file a later layer replaces was read for nothing, and is
 * dropped.
 */
#ifndef FC_OCI_H
#define FC_OCI_H

#include <stdatomic.h>
#include <stdint.h>

#include "fatcheck/scan.h"
#include "stream.h"

#define FC_OCI_NONE UINT32_MAX

/* What a layer's entry does to the filesystem below it. */
typedef enum fc_oci_kind {
    FC_OCI_FILE,      /* a regular file */
    FC_OCI_DIR,
    FC_OCI_SYMLINK,   /* link: the target as written */
    FC_OCI_HARDLINK,  /* link: the path of the file it names, within the image */
    FC_OCI_OTHER,     /* a device, FIFO or socket */
    FC_OCI_WHITEOUT,  /* .wh.NAME: PATH is deleted from the layers below */
    FC_OCI_OPAQUE,    /* .wh..wh..opq: what the layers below put in directory PATH is hidden */
} fc_oci_kind;

typedef struct fc_oci_entry {
    uint32_t path;    /* offset in the layer's names: "usr/lib/x.so" (no leading '/'; "" is /) */
    uint32_t link;    /* offset of the link's target, or FC_OCI_NONE */
    uint32_t held;    /* FC_OCI_FILE holding CUDA code (or something wrong): its held bytes */
    uint8_t kind;
    bool unopened_package; /* FC_OCI_FILE: a package, not opened without packages_in_dirs */
} fc_oci_entry;

/* Bytes held in memory for CUDA files, shared by the layers read at once: beyond it they go to
 * temporary files. */
#define FC_OCI_MEMORY_BUDGET (256ull << 20)
/* Entries listed, all layers of one archive together: each keeps its path until the images
 * are judged (a real image holds some hundred thousand). */
#define FC_OCI_MAX_ENTRIES (4u << 20)
typedef struct fc_oci_budget {
    _Atomic uint64_t used;
    _Atomic uint64_t entries;
    /* What compressed layers' files declare, and the layers' bytes read so far: past
     * opts->max_unpacked and 256 times those, a decompression bomb (oci_layer.c). */
    _Atomic uint64_t unpacked, packed;
} fc_oci_budget;

/* Bytes after a compressed layer's tar ends that are decompressed for its digest at most. */
#define FC_OCI_TAR_TAIL_MAX (64ull << 20)

/* One layer, read. */
typedef struct fc_oci_layer {
    char *names;
    size_t names_len, names_cap;
    fc_oci_entry *entries;
    size_t n_entries, cap_entries;
    fc_held *held;
    size_t n_held, cap_held;
    char digest[80];        /* "sha256:<hex>" of the bytes read */
    char tar_digest[80];    /* of the tar inside them, when compressed and asked for; else "" */
    bool tar_tail_too_long; /* not computed: more than FC_OCI_TAR_TAIL_MAX bytes follow the tar */
    uint64_t bytes;         /* how many */
    bool compressed;        /* gzip, zstd or bzip2 */
    bool damaged;           /* it could not be read to its end: DAMAGE says why */
    char damage[512];
    char **problems;        /* other lines: an entry escaping the root, a file past the limit */
    size_t n_problems, cap_problems;
} fc_oci_layer;

/* Reads the layer blob IN (a tar, gzip or zstd) to its end into *L (zeroed by the caller):
 * entries, whiteouts, and the bytes of each regular file that a scan finds CUDA code in,
 * probed on this thread alone (OPTS's limits; its threads and on_file are not used). DEPTH
 * is the package nesting of the image. TAR_DIGEST: a compressed blob's tar is hashed too
 * (L->tar_digest), for a docker save archive whose config names layers by that digest. Never
 * calls back; problems are kept in *L. */
void fc_oci_layer_read(fc_oci_layer *L, fc_stream *in, const fc_options *opts, unsigned depth, bool tar_digest,
                       fc_oci_budget *budget);
void fc_oci_layer_free(fc_oci_layer *L, fc_oci_budget *budget);
/* A tar member's name as a path from the image's root: "./usr//lib/./x" -> "usr/lib/x". False
 * when ".." climbs above the root or the path does not fit OUT (CAP bytes); *LEN its length. */
bool fc_oci_normalize(const char *in, char *out, size_t cap, size_t *len);
/* Adds the file IN (named PATH; HEAD holds its first GOT bytes, already read; DECLARED is its
 * size, or -1) to L as a layer entry would be, held when it holds CUDA code: the files of an
 * image archive that lie outside its layers, for when it is no image after all. False when
 * out of memory. */
bool fc_oci_layer_add_file(fc_oci_layer *L, fc_stream *in, const char *path, uint8_t *head, size_t got,
                           int64_t declared, const fc_options *opts, unsigned depth, fc_oci_budget *budget);

static inline const char *fc_oci_name(const fc_oci_layer *L, uint32_t off)
{
    return off == FC_OCI_NONE ? NULL : L->names + off;
}

/* ---- The filesystem layers make (oci_fs.c) ---- */
typedef struct fc_oci_fs fc_oci_fs;

fc_oci_fs *fc_oci_fs_new(void);
void fc_oci_fs_free(fc_oci_fs *fs);
/* Applies layer L, the LAYERth of the image, on what the layers before made: its whiteouts
 * first (they hide only what lies below), then its entries in order. Entries that cannot be
 * applied (a parent that is a file, a hard link to nothing, a link loop on the way) are said
 * through PROBLEM, one line each. False when out of memory. */
bool fc_oci_fs_apply(fc_oci_fs *fs, const fc_oci_layer *L, uint32_t layer,
                     void (*problem)(void *ctx, const char *line), void *ctx);

/* A regular file of the final filesystem. */
typedef struct fc_oci_found {
    const char *path;   /* "/usr/lib/x.so" */
    uint32_t layer;     /* the layer whose bytes it has, and its entry there */
    uint32_t entry;
} fc_oci_found;
/* Whether fc_oci_fs_walk stopped checking symbolic links, their resolving having cost more than
 * an image may (and placing the entries did not say so already): which of them loop is not
 * known. */
bool fc_oci_fs_links_unchecked(const fc_oci_fs *fs);
/* Calls FN for every regular file, in path order (bytes), and for every symbolic link whose
 * resolution loops (LOOP set, ENTRY unused). A nonzero return stops the walk and is returned;
 * -1 when out of memory. */
int fc_oci_fs_walk(fc_oci_fs *fs, int (*fn)(void *ctx, const fc_oci_found *f, bool loop), void *ctx);
/* Resolves PATH as the container would open it (symbolic links followed, inside the image's
 * root): the regular file it reaches, or false. */
bool fc_oci_fs_open(fc_oci_fs *fs, const char *path, fc_oci_found *out, char *buf, size_t size);

#endif
