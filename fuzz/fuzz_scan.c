/* fuzz_scan.c - everything fc_scan_memory reads: ELF files, static archives, cubins, PTX,
 * fat binaries and packages; and for every object, the kernels of its images, the link
 * state of its images, and the load prediction on a few targets. Then the same bytes as a
 * file (a memfd), which fc_scan maps and reads headers from with pread; and once more, the
 * file cut to half its size when the first object is handed out, before its images are read,
 * so that reads past its new end go through the library's SIGBUS handling (file_map.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fatcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct scan_run {
    const fc_options *opts;
    int cut_fd;     /* a file to cut short at the first object, or -1 */
    off_t cut_to;
} scan_run;

static int on_object(void *ctx, const fc_object *o)
{
    scan_run *run = ctx;
    const fc_options *opts = run->opts;
    if (run->cut_fd >= 0) {
        if (ftruncate(run->cut_fd, run->cut_to) != 0)
            return 0;
        run->cut_fd = -1;
    }
    static const unsigned ccs[] = {75, 87, 90, 100, 121};
    for (size_t c = 0; c < o->n_containers; c++) {
        const fc_container *ct = &o->containers[c];
        for (size_t k = 0; k < sizeof ccs / sizeof *ccs; k++) {
            fc_target t = {.cc = ccs[k], .tegra = fc_cc_is_tegra(ccs[k]), .driver_cuda = 13000};
            fc_predict_load(ct, &t, NULL);
        }
        for (size_t e = 0; e < ct->n_entries && e < 8; e++) {
            fc_kernel_list *l = NULL;
            fc_entry_kernels(&l, o, &ct->entries[e], opts);
            fc_kernel_list_free(l);
            fc_entry_link_state(o, &ct->entries[e], opts);
        }
    }
    /* And all of them at once, as --kernels reads them: one decompression buffer reused
     * from image to image (opts->threads is 1, so on this thread). */
    fc_kernel_list **lists = NULL;
    fc_status *status = NULL;
    size_t n = 0;
    if (fc_object_kernels(&lists, &status, &n, o, opts) == FC_OK)
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
    scan_run run = {&opts, -1, 0};
    fc_scan_memory(data, size, "fuzz", &opts, on_object, on_error, &run);
    for (int cut = 0; cut < 2; cut++) {
        int fd = memfd_create("fuzz", MFD_CLOEXEC);
        if (fd < 0)
            break;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        run = (scan_run){&opts, cut ? fd : -1, (off_t)(size / 2)};
        if (write(fd, data, size) == (ssize_t)size)
            fc_scan(path, &opts, on_object, on_error, &run);
        close(fd);
    }
    return 0;
}
