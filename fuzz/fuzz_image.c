/* fuzz_image.c - container images: the bytes as an image archive in memory (docker save's
 * manifest.json and <id>/layer.tar, Docker 25's and skopeo's OCI layouts in a tar), read as a
 * file is: its members listed, its metadata parsed and checked against its digests, its
 * layers read at once on two threads, applied (whiteouts, links) and what the container sees
 * scanned; for every object, what the NVIDIA Container Toolkit would say of its image on a few
 * drivers, and the link state and kernels of its first images. (Read as a stream, the same
 * archives go through fuzz_stream.) */
#include <stddef.h>
#include <stdint.h>

#include "fatcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_object(void *ctx, const fc_object *o)
{
    const fc_options *opts = ctx;
    if (o->in_image) {
        static const struct { unsigned cc; int cuda; const char *driver; } targets[] = {
            {90, 12020, "535.104.05"}, {80, 11080, ""}, {75, 0, ""}, {100, 13000, "580.65.06"}};
        for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
            fc_target t = {.cc = targets[i].cc, .driver_cuda = targets[i].cuda};
            for (size_t k = 0; targets[i].driver[k] && k + 1 < sizeof t.driver; k++)
                t.driver[k] = targets[i].driver[k];
            char why[240];
            fc_oci_requirements_check(o->in_image->image, &t, why, sizeof why);
        }
    }
    for (size_t c = 0; c < o->n_containers && c < 4; c++)
        for (size_t e = 0; e < o->containers[c].n_entries && e < 4; e++) {
            const fc_entry *en = &o->containers[c].entries[e];
            fc_entry_link_state(o, en, opts);
            fc_kernel_list *l = NULL;
            fc_entry_kernels(&l, o, en, opts);
            fc_kernel_list_free(l);
        }
    return 0;
}

static int on_error(void *ctx, const fc_error *e)
{
    (void)ctx;
    (void)e;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fc_options opts;
    fc_options_init(&opts);
    opts.max_decompressed_size = 1u << 24;
    opts.max_member_size = 1u << 24;
    opts.max_entries = 4096;
    opts.threads = 2; /* layers read at once */
    fc_scan_memory(data, size, "image.tar", &opts, on_object, on_error, &opts);
    return 0;
}
