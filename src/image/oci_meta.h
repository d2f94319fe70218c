/* oci_meta.h - which images an archive or layout holds, from its metadata (oci_meta.c). */
#ifndef FC_OCI_META_H
#define FC_OCI_META_H

#include "fatcheck/scan.h"

/* Where metadata files are read from: a layout directory, an archive's members. */
typedef struct fc_oci_source {
    void *ctx;
    /* Reads file PATH ("manifest.json", "blobs/sha256/HEX") whole into a new buffer (freed
     * by the caller): FC_OK; FC_ERR_IO when it is not there or cannot be read, FC_ERR_LIMIT
     * when it is too large for metadata; WHY says which. */
    fc_status (*get)(void *ctx, const char *path, uint8_t **data, size_t *len, char *why, size_t why_size);
    /* Whether PATH is there. */
    bool (*has)(void *ctx, const char *path);
} fc_oci_source;

/* Metadata is read whole: no file of it may be larger. */
#define FC_OCI_META_LIMIT (16u << 20)

/* A layer as a manifest names it. */
typedef struct fc_oci_layer_ref {
    const char *path;   /* where its blob is: "blobs/sha256/HEX", "ID/layer.tar" */
    char digest[80];    /* what its bytes should hash to ("" when nothing says) */
    int64_t size;       /* what its descriptor says, or -1 */
    bool diff_id;       /* DIGEST is docker save's diff_id: of the layer uncompressed */
} fc_oci_layer_ref;

typedef struct fc_oci_meta_image {
    fc_oci_image pub;   /* name, tags, digest, platform, requirements (runtimes: filled later) */
    bool usable;        /* its layers are known */
    bool layers_cut;    /* it names more than MAX_LAYERS layers: said once */
    bool nomem;         /* something it says could not be kept for want of memory */
    fc_oci_layer_ref *layers;
    size_t n_layers, cap_layers;
    char **problems;    /* lines: a config that cannot be read, a layer left out */
    size_t n_problems, cap_problems;
    char **tags, **reqs, **strings;
    size_t n_tags, cap_tags, n_reqs, cap_reqs, n_strings, cap_strings;
    fc_oci_runtime *runtimes;
    size_t n_runtimes;
    fc_oci_runtime compat; /* pub.compat points here when it ships one */
    const char *config_digest; /* its config's digest ("sha256:..."), when known */
} fc_oci_meta_image;

typedef struct fc_oci_meta {
    fc_oci_meta_image *images;
    size_t n_images, cap_images;
    char **problems;    /* lines not about one image */
    size_t n_problems, cap_problems;
    bool images_cut;    /* more than MAX_IMAGES: said once */
} fc_oci_meta;

typedef enum fc_oci_kind_of {
    FC_OCI_NOT_IMAGE = 0, /* neither manifest.json nor index.json */
    FC_OCI_DOCKER,        /* docker save's manifest.json */
    FC_OCI_LAYOUT,        /* an OCI image layout */
} fc_oci_kind_of;

/* Reads the images SRC holds into *M (freed with fc_oci_meta_free whatever is returned).
 * BASE names the layout or archive, for tags that come alone; PLATFORM is the one asked for
 * ("os/arch[/variant]", NULL: linux/amd64 unless an image has only one). */
fc_oci_kind_of fc_oci_meta_read(fc_oci_meta *m, const fc_oci_source *src, const char *base, const char *platform);
void fc_oci_meta_free(fc_oci_meta *m);

/* "sha256:HEX" -> "blobs/sha256/HEX"; false for a digest that names no blob a layout holds. */
bool fc_oci_blob_path(const char *digest, char *out, size_t size);
/* The digest a member's path names ("blobs/sha256/HEX" or "HEX.json"; "HEX/layer.tar"'s HEX is
 * not one), into OUT as "sha256:HEX". False when it names none. */
bool fc_oci_path_digest(const char *path, char out[80]);
/* "sha256:HEX" of DATA. */
void fc_oci_sha256(const uint8_t *data, size_t len, char out[80]);

#endif
