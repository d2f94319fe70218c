/* fatcheck/torch.h - PyTorch's JIT extension cache: the extensions in it, and which library
 * each loads. */
#ifndef FATCHECK_TORCH_H
#define FATCHECK_TORCH_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fc_torch_extension {
    char name[256];      /* the extension's name: its folder */
    char dir[4096];      /* its folder */
    char library[4096];  /* what a new process loads: <name>.so (the newest <name>_v<N>.so where it is missing) */
    char python[16];     /* "3.12" from a py312_cu130 folder, "3.13t" from py313t_cu128; "" when not in one */
    char build[32];      /* "cu130", "cpu"; "" when not in a version folder */
    int cuda;            /* 13000 from cu130; 0 for CPU builds or unknown */
} fc_torch_extension;

typedef int (*fc_torch_ext_fn)(void *ctx, const fc_torch_extension *ext);

/* PyTorch's own cache folder: $TORCH_EXTENSIONS_DIR, else
 * ${XDG_CACHE_HOME:-~/.cache}/torch_extensions. Returns BUF. */
FC_API const char *fc_torch_extensions_default_dir(char *buf, size_t size);

/* Calls FN for every built extension under DIR (NULL: the default folder), in name order.
 * DIR may be the cache root (holding py<ver>_cu<ver>/ folders, or extensions directly when
 * it is a TORCH_EXTENSIONS_DIR), one version folder, or one extension's folder. Returns 0,
 * FC_STOP or FN's positive value when FN stopped it (common.h), or FC_ERR_IO with ERR set when
 * DIR is no folder, its path is longer than PATH_MAX, or it holds no built extension. A
 * folder inside that cannot be listed, a library that is no regular file, or a path inside
 * longer than PATH_MAX (which fc_torch_extension cannot hold, nor any call open) does not
 * stop the others being reported; then FC_ERR_IO (FC_ERR_NOMEM when memory ran out) is
 * returned at the end, with ERR naming the first such path and counting the others ("; and 2
 * more folders or libraries that cannot be judged"): ERR_SIZE of 4096 bytes and a few hundred
 * more holds it whole. */
FC_API int fc_torch_extensions(const char *dir, fc_torch_ext_fn fn, void *ctx, char *err, size_t err_size);

/* Whether extension X's folder is stale: built for another Python than PYTHON ("3.12"), or,
 * when TORCH_CUDA is known (>= 0; 0 for a CPU build of torch), for another CUDA than torch's.
 * PyTorch then builds into another folder and never loads this one. 1 stale, 0 not, -1 when
 * it cannot be told (PYTHON unknown, or X not in a version folder). */
FC_API int fc_torch_extension_stale(const fc_torch_extension *x, const char *python, int torch_cuda);

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_TORCH_H */
