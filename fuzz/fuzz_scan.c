/* fuzz_scan.c - everything fc_scan_memory reads: ELF files, static archives, cubins, PTX,
 * fat binaries and packages; and for every object, the kernels of its images, the link
 * state of its images, and the load prediction on a few targets. Then the same bytes as a
 * file (a memfd), which fc_scan maps and reads headers from with pread. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fatcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_object(void *ctx, const fc_object *o)
{
    const fc_options *opts = ctx;
    static const unsigned ccs[] = {75, 87, 90, 100, 121};
    for (size_t c = 0; c < o->n_containers; c++) {
        const fc_container *ct = &o->containers[c];
        for (size_t k = 0; k < sizeof ccs / sizeof *ccs; k++) {
            fc_target t = {.cc = ccs[k], .tegra = fc_cc_is_tegra(ccs[k]), .driver_cuda = 13000};
            fc_predict_load(ct, &t, NULL);
        }
        for (size_t e = 0; e < ct->n_entries && e < 8; e++) {
            fc_kernel_list *l = NULL;
            fc_entry_kernels(o, &ct->entries[e], opts, &l);
            fc_kernel_list_free(l);
            fc_entry_link_state(o, &ct->entries[e], opts);
        }
    }
    /* And all of them at once, as --kernels reads them: one decompression buffer reused
     * from image to image (opts->threads is 1, so on this thread). */
    fc_kernel_list **lists = NULL;
    fc_status *status = NULL;
    size_t n = 0;
    if (fc_object_kernels(o, opts, &lists, &status, &n) == FC_OK)
        fc_object_kernels_free(lists, status, n);
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
    opts.threads = 1;
    opts.embedded = FC_EMBEDDED_ALL;
    fc_scan_memory(data, size, "fuzz", &opts, on_object, on_error, &opts);
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd >= 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        if (write(fd, data, size) == (ssize_t)size)
            fc_scan(path, &opts, on_object, on_error, &opts);
        close(fd);
    }
    return 0;
}
