/* fatcheck/match.h - which image the CUDA driver loads, or a device linker takes, from a
 * container on a target GPU; GPU names, arch lists and driver versions. */
#ifndef FATCHECK_MATCH_H
#define FATCHECK_MATCH_H

#include "scan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compute capabilities are written as one number: 90 for 9.0, 103 for 10.3, 121 for 12.1.
 * CUDA versions as cuDriverGetVersion gives them: 13000 for 13.0, 12040 for 12.4. */

/* A GPU to judge: where it came from, and the driver it runs under. */
typedef struct fc_target {
    unsigned cc;              /* compute capability: 90 */
    bool tegra;               /* a Jetson (integrated) part: cubins do not cross to desktop parts */
    int driver_cuda;          /* CUDA version the driver supports, or 0: assumed new enough */
    char name[96];            /* product name when known: "NVIDIA H200" */
    char source[160];         /* what named it: "GPU 0", "--gpu RTX 4090", "--arch-list 8.0+PTX" */
    char uuid[96];            /* detected through NVML: "GPU-33ea3011-...", "MIG-..."; else "" */
    char driver[32];          /* the driver release when known ("550.54.14"), else "" */
} fc_target;

/* What the driver would do with one container on one target. The names are the driver's. */
typedef enum fc_load_result {
    FC_LOAD_SUCCESS = 0,         /* CUDA_SUCCESS */
    FC_LOAD_NO_BINARY,           /* CUDA_ERROR_NO_BINARY_FOR_GPU (209): "no kernel image is available" */
    FC_LOAD_UNSUPPORTED_PTX,     /* CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222): PTX newer than the driver */
    FC_LOAD_JIT_DISABLED,        /* CUDA_ERROR_JIT_COMPILATION_DISABLED (223): only PTX, JIT disabled */
    FC_LOAD_INVALID_PTX,         /* CUDA_ERROR_INVALID_PTX (218): PTX compiled as a whole program that
                                    calls a function it does not define (ptxas: "Unresolved extern
                                    function"); see fc_refine_load */
    FC_LOAD_LINK_INPUT,          /* no driver result: a link input (fc_predict_link says what a
                                    device linker takes from it) */
    FC_LOAD_RELOCATABLE,         /* relocatable code registered as a module (PTX stored with
                                    --compile-only in .nv_fatbin): the driver fails its functions at
                                    first use, CUDA_ERROR_INVALID_IMAGE (200) or CUDA_ERROR_NOT_FOUND
                                    (500); eagerly loaded, the load itself */
    FC_LOAD_INVALID_IMAGE,       /* CUDA_ERROR_INVALID_IMAGE (200): PTX text the driver does not
                                    take for PTX, as it starts with a byte outside ASCII (a UTF-8
                                    byte order mark: "Binary format ... is not recognized", H200,
                                    driver 580); counted with the unreadable PTX */
    FC_LOAD_UNSUPPORTED_COMPRESSION, /* the chosen image is stored zstd-compressed (nvcc
                                    --compress-mode=size, balance, or 13.x's default for PTX),
                                    which drivers before CUDA 12.4 (550.54.14) cannot read (nvcc
                                    documentation; older drivers answer "device kernel image is
                                    invalid"); counted as a module that fails */
    FC_LOAD_EMPTY,               /* no driver result: a container without entries (the empty fat
                                    binary of nvcc 13's device link step for PTX-only code, never
                                    registered); it holds no kernel, so nothing can fail to
                                    launch from it, and it is not counted */
    FC_LOAD_INVALID_SOURCE,      /* CUDA_ERROR_INVALID_SOURCE (300): the chosen cubin's own ELF
                                    header names another SM than its entry header (an sm_80 cubin
                                    stored as sm_90: H200, driver 580); counted with the damaged
                                    cubins */
    FC_LOAD_UNCOMPRESS_FAILED,   /* the chosen image is stored under a compression flag but does not
                                    inflate: the driver logs "Uncompress failed" and answers
                                    CUDA_ERROR_UNKNOWN (999) for zstd, CUDA_ERROR_NO_BINARY_FOR_GPU
                                    (209) for LZ4, PTX beside it or not (H200, driver 580); counted
                                    with the damaged cubins, or the PTX the JIT cannot read */
    FC_LOAD_TOOLKIT_TOO_NEW,     /* the chosen cubin was written by a CUDA 13 toolchain (ELF ABI
                                    version 8; entry code version 1.8), and the target's driver is
                                    older than CUDA 13.0, or by a CUDA 12 one (its ELF header's
                                    e_version, read for such drivers only) and the driver is older than CUDA
                                    12.0: NVIDIA's minor version compatibility runs what a CUDA
                                    toolkit builds on drivers of its major only (docs/matching.md,
                                    rule 13; no older driver was tried); counted as a module that
                                    fails */
} fc_load_result;

typedef enum fc_load_via {
    FC_VIA_NONE = 0,
    FC_VIA_NATIVE,      /* a cubin for exactly this compute capability */
    FC_VIA_COMPATIBLE,  /* a cubin for an older minor of the same major (sm_86 code on 8.9) */
    FC_VIA_JIT,         /* PTX compiled by the driver at load time */
} fc_load_via;

typedef struct fc_load {
    fc_load_result result;
    fc_load_via via;
    int entry;          /* index of the chosen (or, on PTX failures, the refused) entry, or -1 */
    bool unreadable;    /* FC_LOAD_INVALID_PTX: the JIT cannot read the text at all (a byte
                           outside ASCII outside comments, braces cut short), not only a call
                           to a function defined elsewhere */
} fc_load;

/* CUDA_FORCE_PTX_JIT / CUDA_DISABLE_PTX_JIT, as the driver reads them. */
typedef struct fc_jit_policy {
    bool force_ptx_jit;   /* cubins are ignored */
    bool disable_ptx_jit; /* PTX is never compiled */
} fc_jit_policy;

/* Reads the policy from the environment (values other than unset, empty or "0" count). */
FC_API void fc_jit_policy_from_env(fc_jit_policy *p);

/* Predicts what cuModuleLoadData does with container C on target T (docs/matching.md),
 * from the headers alone. A link input (C->role) gets FC_LOAD_LINK_INPUT: use fc_predict_link.
 * What only the chosen image's contents tell (fc_refine_load) is not looked at. */
FC_API fc_load fc_predict_load(const fc_container *c, const fc_target *t, const fc_jit_policy *p);

/* What the driver does with C on T once it has chosen entry I (it falls back to no other). */
FC_API fc_load fc_load_of_entry(const fc_container *c, const fc_target *t, const fc_jit_policy *p, int i);

/* The entries of C, of the kind of entry CHOSEN (fc_predict_load's), that the driver might
 * choose on T instead, where its order between them was never seen: f images against any
 * other, a images against plain ones beyond 9.0 (docs/matching.md, rule 3). Up to MAX indices
 * into OUT; returns how many. */
FC_API size_t fc_load_alternatives(const fc_container *c, const fc_target *t, int chosen, int *out, size_t max);

/* fc_predict_load's answer, checked against the chosen image of C (a container of OBJ; call it
 * from the scan callback): PTX compiled as a whole program that calls a function defined
 * elsewhere fails to load (FC_LOAD_INVALID_PTX); a relocatable (ET_REL) cubin makes C a link
 * input for that target (FC_LOAD_LINK_INPUT): the driver runs none as a module. Reads only
 * containers the runtime does not register (bare fat binaries, cubin and PTX files, containers
 * kept as data): registered ones were linked when the program was built. OPTS bounds the
 * decompression (NULL: defaults). */
FC_API fc_load fc_refine_load(const fc_object *obj, const fc_container *c, fc_load l, const fc_options *opts);
/* fc_refine_load for target T, as fc_judge refines: PTX the driver would compile, read whole,
 * is also judged by its own head, not the entry header's: a .version newer than T's driver
 * takes (FC_LOAD_UNSUPPORTED_PTX), a .target T cannot run or older than its .version allows,
 * no .version or .target, .address_size 32 for a CUDA 13 driver (FC_LOAD_INVALID_PTX); and
 * T's driver decides how the JIT reads the text (docs/matching.md, rule 2). fc_refine_load
 * alone leaves those out: it knows no target. */
FC_API fc_load fc_refine_load_on(const fc_object *obj, const fc_container *c, fc_load l, const fc_target *t,
                                 const fc_options *opts);

/* What a device linker (nvlink, nvJitLink) would take from a link input for target T: a cubin
 * of T's architecture (or an older minor of its major; 'a' and 'f' as for the driver), else
 * PTX of an architecture at or below T's, else LTO-IR likewise. */
typedef enum fc_link_via {
    FC_LINK_VIA_NONE = 0, /* nothing: linking for T fails with undefined references */
    FC_LINK_VIA_CUBIN,
    FC_LINK_VIA_PTX,      /* compiled by the linker's own ptxas: its PTX ISA must not be newer
                             than the linking toolkit */
    FC_LINK_VIA_LTOIR,    /* with link-time optimisation (nvlink -dlto, nvJitLink -lto) */
} fc_link_via;

typedef struct fc_link {
    fc_link_via via;
    int entry;            /* index of the image taken, or -1 */
} fc_link;

FC_API fc_link fc_predict_link(const fc_container *c, const fc_target *t);
FC_API const char *fc_link_via_name(fc_link_via v); /* "cubin", "ptx", "ltoir", "none" */
FC_API const char *fc_role_name(fc_role r);         /* "module", "link_input" */

/* Whether an image runs on compute capability CC (ignoring driver versions). */
FC_API bool fc_cubin_runs_on(unsigned arch, fc_variant v, unsigned cc, bool cc_is_tegra);
FC_API bool fc_ptx_jits_for(unsigned arch, fc_variant v, unsigned cc);

/* Names of results, as the driver names them: "CUDA_SUCCESS", "CUDA_ERROR_NO_BINARY_FOR_GPU". */
FC_API const char *fc_load_result_name(fc_load_result r);
FC_API const char *fc_load_via_name(fc_load_via v);   /* "native", "compatible", "jit", "none" */

/* Fills *T from a user's spec: "sm_86", "8.6", "86", "compute_86", or a product name
 * ("RTX 4090", "NVIDIA H100 80GB HBM3", "Jetson Orin"; case and vendor words ignored).
 * FC_ERR_INVALID with ERR set otherwise: for an unknown name, with close matches suggested;
 * for a name several products share ("RTX 6000"), with the names to use. */
FC_API fc_status fc_target_parse(fc_target *t, const char *spec, char *err, size_t err_size);

/* True for a compute capability some GPU has had (3.0 to 12.1: 8.8 and 10.1 included, the
 * latter Jetson Thor's before CUDA 13); fc_target_parse refuses others ("9.9"). */
FC_API bool fc_cc_exists(unsigned cc);
/* True for the Jetson compute capabilities (5.3, 6.2, 7.2, 8.7, 10.1, 11.0). */
FC_API bool fc_cc_is_tegra(unsigned cc);

/* The first CUDA version whose driver runs compute capability CC (12080 for 10.0), or 0 where
 * fatcheck knows none (older than 7.0, or unknown): a named driver older than that cannot run
 * anything on such a GPU (docs/matching.md, rule 3). */
FC_API int fc_cc_first_cuda(unsigned cc);
/* The last CUDA version whose driver runs compute capability CC (11040 for 3.7: R470 was the
 * last branch for Kepler; 13000 for Maxwell, Pascal and Volta: R580), or 0 where no branch
 * has dropped it (Jetson parts, whose drivers are their own, included): a named driver newer
 * than that cannot run anything on such a GPU (docs/matching.md, rule 3). BRANCH, when not
 * NULL, is set to the last branch ("R470"). */
FC_API int fc_cc_last_cuda(unsigned cc, const char **branch);
/* Products of a compute capability, for people: "H100, H200, GH200"; "" when unknown. */
FC_API const char *fc_cc_products(unsigned cc);
/* Every compute capability the tables know, ascending; returns how many (at most MAX). */
FC_API size_t fc_known_ccs(unsigned *out, size_t max);

/* A product fc_target_parse knows, as people write it ("RTX 4090", "Jetson AGX Orin"). */
typedef struct fc_product {
    const char *name;
    unsigned cc;
} fc_product;
/* The products fc_target_parse knows by name, one per way of naming them (its table also
 * takes other spellings: "NVIDIA H100 80GB HBM3", "RTX4090"), by ascending compute
 * capability; writes up to MAX to OUT (which may be NULL) and returns how many there are. */
FC_API size_t fc_known_products(fc_product *out, size_t max);

/* A TORCH_CUDA_ARCH_LIST value, parsed: each entry builds a cubin and, with +PTX, PTX. */
typedef struct fc_arch_entry {
    unsigned cc;
    bool arch_specific;  /* "9.0a" */
    bool ptx;            /* "+PTX" */
} fc_arch_entry;

typedef struct fc_arch_list {
    fc_arch_entry entries[64];
    size_t n;
} fc_arch_list;

/* Parses VALUE with torch's grammar: entries separated by ';' or spaces, "X.Y", "X.Ya",
 * "+PTX", and the named architectures (Ampere, Hopper, ...) expanded. "native" is refused
 * here (the caller knows the local GPUs). FC_ERR_INVALID with ERR set on a bad value,
 * FC_ERR_LIMIT past 64 entries. */
FC_API fc_status fc_arch_list_parse(fc_arch_list *out, const char *value, char *err, size_t err_size);

/* Parses a driver version: a CUDA version ("12.4") or a driver release ("550.54.14", mapped
 * through NVIDIA's release table to the newest CUDA version it supports). FC_ERR_INVALID with
 * ERR set on one it cannot read. */
FC_API fc_status fc_driver_parse(int *cuda_version, const char *s, char *err, size_t err_size);
/* Whether S, as fc_driver_parse reads it, names a driver release rather than a CUDA version
 * ("12.4", "12040"); if so, RELEASE (SIZE bytes) gets it, a branch ("580") as the branch's
 * first release ("580.65.06"), for what compares releases (a container image's driver>=). */
FC_API bool fc_driver_release(const char *s, char *release, size_t size);
/* The CUDA release that introduced PTX ISA MAJOR.MINOR (9.1 -> 13010), or 0 if unknown. */
FC_API int fc_ptx_isa_cuda_version(unsigned major, unsigned minor);
/* The CUDA version whose toolchain at the least wrote cubin E, as its headers tell without
 * reading it (13000 for ELF ABI version 8, CUDA 13's ptxas), or 0 when they do not tell. A
 * driver older than it does not run it (FC_LOAD_TOOLKIT_TOO_NEW). */
FC_API int fc_cubin_toolkit_cuda(const fc_entry *e);
/* The minimum Linux x86_64 driver for CUDA version V ("590.44.01"), or NULL if unknown. */
FC_API const char *fc_cuda_min_driver(int cuda_version);

/* Whether an image refers to symbols it does not define, other than those the driver itself
 * supplies (vprintf, malloc, free, __assertfail): a cubin by its undefined global symbols
 * (weak ones do not count), PTX by its .extern functions and variables (.extern .shared, the
 * dynamic shared memory, does not count). Such an image needs device linking. Reads (and
 * decompresses, within opts->max_decompressed_size) the image, so OBJ's bytes must be at hand:
 * call it from the scan callback. */
typedef enum fc_link_state {
    FC_LINK_UNKNOWN = 0,     /* obfuscated, LTO-IR, or unreadable */
    FC_LINK_SELF_CONTAINED,
    FC_LINK_UNRESOLVED,
} fc_link_state;
FC_API fc_link_state fc_entry_link_state(const fc_object *obj, const fc_entry *e, const fc_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_MATCH_H */
