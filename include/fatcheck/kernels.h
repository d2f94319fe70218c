/* fatcheck/kernels.h - the kernels of an image: names, entry points, registers, shared memory. */
#ifndef FATCHECK_KERNELS_H
#define FATCHECK_KERNELS_H

#include "scan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fc_kernel {
    const char *name;       /* as the image names it (C++ names mangled) */
    const char *demangled;  /* C++ names demangled (libiberty); others as NAME */
    bool entry;             /* a __global__ entry point; else a device function */
    int registers;          /* registers per thread, from .nv.info; -1 when not recorded */
    int64_t shared_bytes;   /* static shared memory, from .nv.shared.<name>; -1 when none */
} fc_kernel;

typedef struct fc_kernel_list {
    fc_kernel *items;
    size_t n, cap;
    uint32_t elf_arch;      /* cubins: the SM in the cubin's own ELF header (e_flags) */
    bool arch_mismatch;     /* cubins: it differs from the container entry's arch */
    size_t image_size;      /* bytes of the decompressed image */
    void *store;            /* its strings (shared by the lists of one fc_object_kernels call) */
} fc_kernel_list;

/* The kernels of one cubin or PTX image of OBJ (decompressed within opts->max_decompressed_size;
 * call from the scan callback). FC_ERR_UNSUPPORTED for LTO-IR, obfuscated or unknown images,
 * an unknown compression, and an object without its bytes (OBJ->image NULL); FC_ERR_FORMAT
 * for an image that lies outside the object, does not decompress, or is no ELF file libelf
 * may read (a cubin); FC_ERR_LIMIT past opts->max_decompressed_size or opts->max_sections;
 * FC_ERR_IO when the file was cut short while the image was read (the scan reports that
 * once, through on_error, when it is done with the file); FC_ERR_NOMEM; FC_ERR_INVALID for
 * OPTS not filled by fc_options_init. */
FC_API fc_status fc_entry_kernels(fc_kernel_list **out, const fc_object *obj, const fc_entry *e,
                                  const fc_options *opts);
FC_API void fc_kernel_list_free(fc_kernel_list *l); /* accepts NULL */

/* The kernels of every entry of OBJ, read on opts->threads threads (0: all CPUs). *OUT and
 * *STATUS get one element per entry, in container order; an element of *OUT is NULL where
 * *STATUS says why (fc_entry_kernels's statuses). Free with fc_object_kernels_free.
 * FC_ERR_NOMEM, or FC_ERR_INVALID for OPTS not filled by fc_options_init. */
FC_API fc_status fc_object_kernels(fc_kernel_list ***out, fc_status **status, size_t *n,
                                   const fc_object *obj, const fc_options *opts);
FC_API void fc_object_kernels_free(fc_kernel_list **lists, fc_status *status, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_KERNELS_H */
