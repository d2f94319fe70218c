/* kernel_view.h - --kernels: the kernels of every image, and per target the kernels that no
 * loadable module provides. */
#ifndef FC_KERNEL_VIEW_H
#define FC_KERNEL_VIEW_H

#include "fatcheck.h"

typedef struct missing_kernel {
    const char *name, *demangled; /* owned by the kernel lists */
    char available_in[256];       /* arch names of the images that have it: "sm_100 sm_120" */
    size_t containers;            /* failing containers that hold it */
} missing_kernel;

typedef struct kernel_view {
    fc_kernel_list **lists;   /* one per entry, in container order; NULL where status says why */
    fc_status *status;
    size_t n;
    size_t *first;            /* per container: index of its first entry */
    missing_kernel **missing; /* per target, an array sorted by demangled name */
    size_t *n_missing;
    size_t *missing_cap;
} kernel_view;

struct judgement;
/* Reads the kernels of every entry, and with the judgement's loads works out what is
 * missing per target (registered containers only: embedded ones are counted in verdicts
 * but their kernels are the library's business). */
kernel_view *kernel_view_new(const fc_object *obj, const fc_options *opts, const struct judgement *j);
void kernel_view_free(kernel_view *kv, size_t n_targets);
/* The entry list for container C, entry E. */
const fc_kernel_list *kernel_view_entry(const kernel_view *kv, size_t c, size_t e);

#endif
