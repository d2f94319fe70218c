/* fatcheck/verdict.h - a file's verdict per target GPU: what the driver does with each of its
 * containers, whether each target can run it, whether it holds what an arch list builds,
 * which kernels a target lacks, and what advice to rebuild it rests on. The rules are those
 * of docs/matching.md; front ends (the fatcheck command, the Python package) only render. */
#ifndef FATCHECK_VERDICT_H
#define FATCHECK_VERDICT_H

#include "gpus.h"
#include "kernels.h"
#include "match.h"
#include "require.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FC_MAX_TARGETS 64

/* What a judgement is made against. Set up with fc_judge_options_init; everything it points
 * to, and the options themselves, must outlive the judgements made with them. */
typedef struct fc_judge_options {
    fc_target targets[FC_MAX_TARGETS];
    int device[FC_MAX_TARGETS]; /* per target: the local device number of a detected GPU (the
                                   prober loads on it), or -1 */
    size_t n_targets;
    fc_jit_policy jit;          /* as the driver reads CUDA_FORCE_PTX_JIT/CUDA_DISABLE_PTX_JIT */
    const fc_arch_list *arch_list; /* files must hold exactly what it builds; or NULL */
    bool strict;                /* a partial verdict is a problem too (fc_judgement_problems);
                                   and a zstd cubin's own SM is read (its first block inflated),
                                   as with KERNELS */
    bool kernels;               /* read every image's kernels and name those a target lacks */
    fc_prober *prober;          /* ask the driver to load each container on the targets that are
                                   local devices; or NULL */
    const fc_options *scan;     /* limits for reading images (decompression); NULL: defaults */
} fc_judge_options;

/* Fills *O: no targets, no arch list, the driver's default JIT policy (fc_jit_policy_from_env
 * reads the environment's), nothing probed. */
FC_API void fc_judge_options_init(fc_judge_options *o);

/* Adds target T to O, bound to local device DEVICE (or -1). A target bound to no device that
 * equals one already added (same compute capability and driver, also bound to none) is merged
 * into it: its source is appended to that one's ("--gpu H100, --arch-list"). FC_ERR_LIMIT when
 * O holds FC_MAX_TARGETS targets already. */
FC_API fc_status fc_judge_options_add_target(fc_judge_options *o, const fc_target *t, int device);

typedef enum fc_verdict_status {
    FC_VERDICT_NO_CODE = 0, /* nothing the driver loads or a linker takes: no containers */
    FC_VERDICT_OK,          /* every module loads, every link input has an image for the target */
    FC_VERDICT_PARTIAL,     /* some do not */
    FC_VERDICT_NONE,        /* none does (every kernel launch fails), or the runtime or the container
                               cannot start, or the code was never device-linked */
} fc_verdict_status;

FC_API const char *fc_verdict_status_name(fc_verdict_status s); /* "ok", "partial", "none", "no-code" */

/* One target's verdict on a file, with the counts behind it. Fields may be added at the end. */
typedef struct fc_verdict {
    fc_verdict_status status;
    size_t modules;           /* containers the driver would be asked to load */
    size_t native, compatible, jit; /* modules that load, and how */
    size_t no_binary, unsupported_ptx, jit_disabled, invalid_ptx; /* modules that fail, and why */
    size_t unreadable_ptx;    /* of INVALID_PTX, those whose text the JIT cannot read at all */
    size_t invalid_image;     /* of those, the ones the driver does not even take for PTX
                                 (FC_LOAD_INVALID_IMAGE) */
    size_t relocatable;       /* relocatable code registered as a module: fails at first use */
    size_t unsupported_compression; /* modules whose chosen image is zstd-compressed, which the
                                 target's driver (before CUDA 12.4) cannot read */
    size_t toolkit_too_new;   /* modules whose chosen cubin a toolchain of a later CUDA major than
                                 the driver's wrote: CUDA 13's, on a driver before 13.0, or 12's,
                                 on one before 12.0 (FC_LOAD_TOOLKIT_TOO_NEW) */
    size_t undecoded;         /* registered code that could not be decoded (fc_object.
                                 registered_undecoded), counted as one module that fails */
    size_t link_inputs;       /* relocatable code a device linker takes in (counted beside modules) */
    size_t linkable;          /* of them, those with an image the linker can use for the target */
    size_t linked_via[4];     /* linkable ones by what the linker takes: indexed by fc_link_via */
    size_t unused_link_inputs; /* __nv_relfatbin containers of a file that has .nv_fatbin: never
                                  loaded, not counted above */
    size_t empty;             /* containers without entries (FC_LOAD_EMPTY): no kernel in them,
                                 not counted above */
    bool runtime_fails;       /* the runtime the file needs cannot start on the target's driver */
    bool unlinked;            /* its -rdc code was never device-linked (fc_object.device_link_missing):
                                 it cannot be loaded */
    /* In a container image (fc_object.in_image): whether the NVIDIA Container Toolkit starts its
     * container on the target (its NVIDIA_REQUIRE_* values), and why not or why unknown;
     * FC_REQUIRE_MET elsewhere. Refused (unmet or invalid) makes the verdict none. */
    fc_require_result container;
    char container_why[240];
    uint32_t compatible_arch; /* the newest older-minor cubin arch used */
    uint32_t jit_arch;        /* the newest PTX arch compiled */
    size_t defines_nothing;   /* registered containers whose cubins define no function and no
                                 variable: nothing reachable, not counted above (docs/matching.md,
                                 rule 10) */
    size_t damaged_cubins;    /* modules whose chosen cubin's ELF header the driver refuses
                                 (FC_LOAD_INVALID_IMAGE): the file is damaged */
    /* Of the modules and link inputs counted above, those the CUDA runtime registers (all but
     * the ones a file keeps as data and loads or links itself), and of them those that load
     * and those that link. */
    size_t registered_units, registered_loading, registered_linkable;
    /* None of the registered ones that hold code is usable on the target, while code the file
     * keeps is: every kernel launched through the runtime fails, and the status is none
     * (docs/matching.md, rule 12); registered_failing counts the registered ones that hold
     * code (or may: not decoded), which all fail. */
    bool registered_all_fail;
    size_t registered_failing;
    size_t runtime_linked; /* modules (counted in modules, as loading) that cannot load as they
                              are, the device link step's output, where the CUDA runtime links
                              the file's -rdc objects itself, each with an image for the
                              target (docs/matching.md, rule 5) */
    size_t rdc_unlinkable; /* with registered_all_fail: the file's -rdc objects (__nv_relfatbin)
                              that hold code, none of which has an image the runtime could link
                              for the target (0: the file has none) */
    /* Modules whose chosen image the driver refuses itself (FC_LOAD_INVALID_IMAGE,
     * FC_LOAD_INVALID_SOURCE, FC_LOAD_UNCOMPRESS_FAILED; counted in damaged_cubins or
     * unreadable_ptx too), and of them those that do not inflate, by what the driver answers
     * then: CUDA_ERROR_NO_BINARY_FOR_GPU (209) under the LZ4 flag, CUDA_ERROR_UNKNOWN (999)
     * under another (H200, driver 580). What a launch fails with differs by each. */
    size_t refused_images, uncompress_unknown, uncompress_no_binary;
    /* Of the modules that fail, those whose predicted image loads but beside which the driver
     * might choose another, by an order never seen on a driver (an f image, an a one beyond
     * 9.0: fc_load_alternatives), that fails; counted by that one's failure (rule 3). */
    size_t unseen_order;
    /* The target's driver (named, or a fleet's) predates the first CUDA release that runs its
     * GPU: this is that release (fc_cc_first_cuda), and nothing loads there (status none, when
     * the file holds code); 0 otherwise, and where the driver is unknown. */
    int gpu_needs_cuda;
    /* The target's driver (named, or a fleet's) is newer than the last CUDA release whose
     * driver runs its GPU (R470, CUDA 11.4, for Kepler; R580, 13.0, for Maxwell, Pascal and
     * Volta): this is that release (fc_cc_last_cuda), and nothing loads there (status none,
     * when the file holds code); 0 otherwise, and where the driver is unknown. */
    int gpu_last_cuda;
    /* With kernels: modules (and link inputs) that load here, whose image taken here lacks
     * kernels their other images hold (built for some architectures only: #if __CUDA_ARCH__);
     * their launches fail ("named symbol not found"), and the status is partial at best. */
    size_t modules_lacking_kernels;
    /* With toolkit_too_new: the CUDA release whose driver, at the least, runs all of those
     * cubins (13000 for CUDA 13's ptxas, 12000 for CUDA 12's (dated by their ELF e_version) on
     * a driver before CUDA 12.0: docs/matching.md, rule 13); 0 otherwise. */
    int toolkit_too_new_cuda;
} fc_verdict;

/* What the driver said when asked to load a container (fc_judge_options.prober). */
typedef struct fc_probe_result {
    int code;      /* the CUresult; -1 the driver crashed, -2 no usable driver, -3 not probed */
    bool compared; /* false for link inputs: the driver's answer is shown, no claim compared */
    bool agrees;   /* the prediction and the driver's answer agree */
} fc_probe_result;

typedef struct fc_probe_totals {
    size_t compared, disagreements, crashes;
} fc_probe_totals;

/* The newest PTX ISA among a file's PTX, and the driver it needs (docs/matching.md, rule 3). */
typedef struct fc_ptx_need {
    unsigned isa_major, isa_minor; /* 0.0 when the file holds no PTX */
    int cuda;                      /* the CUDA release that introduced that ISA (12040), or 0 */
    const char *min_driver;        /* that release's minimum Linux driver, or NULL (also for
                                      Windows files: their drivers are numbered otherwise) */
} fc_ptx_need;

/* One image an arch list builds, and how many of the file's containers lack it. */
typedef struct fc_arch_expectation {
    fc_image_kind kind;   /* FC_IMAGE_CUBIN or FC_IMAGE_PTX */
    unsigned cc;
    bool arch_specific;
    size_t lacking;
} fc_arch_expectation;

/* Whether a file holds exactly what an arch list builds, in each container not kept as data. */
typedef struct fc_arch_check {
    const fc_arch_expectation *expected;
    size_t n_expected;
    const char *const *unexpected; /* images present but not built by the list: "sm_86" */
    size_t n_unexpected;
    bool matches;                  /* nothing lacking, nothing unexpected, some container checked */
    bool no_code;                  /* the file holds no CUDA code at all (a build that fell back to
                                      CPU only): every image of the list is lacking, and the
                                      check fails */
} fc_arch_check;

/* A kernel that a target cannot launch: no module that loads there provides it. */
typedef struct fc_missing_kernel {
    const char *name, *demangled;
    char available_in[256]; /* the images of the modules lacking it that have it, space-separated:
                               "sm_100 sm_120" (another module's kernel of that name is not it) */
    size_t containers;      /* failing containers that hold it */
} fc_missing_kernel;

/* The judgement of one object against fc_judge_options. */
typedef struct fc_judgement fc_judgement;

/* Judges OBJ (call from the scan callback: images may be read, within opts->scan's limits,
 * to refine predictions, tell the runtime's needs and, with opts->kernels, read kernels; with
 * opts->prober, each container is loaded by the driver). *OUT is freed with
 * fc_judgement_free. FC_ERR_NOMEM, or FC_ERR_INVALID for a NULL argument or opts->scan not
 * filled by fc_options_init. */
FC_API fc_status fc_judge(fc_judgement **out, const fc_object *obj, const fc_judge_options *opts);
FC_API void fc_judgement_free(fc_judgement *j); /* accepts NULL */

/* Per container C (in OBJ's order) and target T (in the options' order): what the driver does
 * with it (FC_LOAD_LINK_INPUT for link inputs; .entry is then the image the linker takes), and
 * for link inputs what a device linker takes ({FC_LINK_VIA_NONE, -1} for modules). */
FC_API fc_load fc_judgement_load(const fc_judgement *j, size_t c, size_t t);
FC_API fc_link fc_judgement_link(const fc_judgement *j, size_t c, size_t t);
/* Whether container C is an __nv_relfatbin link input of a file that has .nv_fatbin: the
 * runtime registers .nv_fatbin and never uses it. */
FC_API bool fc_judgement_unused(const fc_judgement *j, size_t c);
/* Whether container C is registered but its cubins define no function and no variable: its
 * load is predicted, but it is left out of verdicts (docs/matching.md, rule 10). */
FC_API bool fc_judgement_defines_nothing(const fc_judgement *j, size_t c);
/* The driver's answer for container C on target T; NULL when nothing was probed. */
FC_API const fc_probe_result *fc_judgement_probe(const fc_judgement *j, size_t c, size_t t);
/* Over every container and target; NULL when nothing was probed. */
FC_API const fc_probe_totals *fc_judgement_probe_totals(const fc_judgement *j);

FC_API const fc_verdict *fc_judgement_verdict(const fc_judgement *j, size_t t);
/* Whether V fails for the driver, not the images: the runtime or the container cannot start
 * on the target's driver, or that driver does not know its GPU. Nothing runs there whatever
 * the images hold; a new driver fixes it, no build does. */
FC_API bool fc_verdict_driver_fails(const fc_verdict *v);
/* Containers not kept as data (fc_container_kept_as_data): those the checks and advice count. */
FC_API size_t fc_judgement_registered(const fc_judgement *j);
FC_API const fc_runtime_need *fc_judgement_runtime(const fc_judgement *j);
FC_API const fc_ptx_need *fc_judgement_ptx(const fc_judgement *j);
/* NULL without an arch list. */
FC_API const fc_arch_check *fc_judgement_arch_check(const fc_judgement *j);

/* With opts->kernels: the kernels of entry E of container C, and why they are absent (*OUT
 * NULL): FC_ERR_UNSUPPORTED for LTO-IR and unknown images, FC_ERR_LIMIT, FC_ERR_FORMAT,
 * FC_ERR_IO, FC_ERR_NOMEM (see fc_entry_kernels). FC_ERR_INVALID without opts->kernels, or for
 * C or E out of range. */
FC_API fc_status fc_judgement_kernels(const fc_kernel_list **out, const fc_judgement *j, size_t c, size_t e);
/* With opts->kernels: the kernels target T cannot launch, sorted by demangled name; returns
 * how many (0 without opts->kernels). */
FC_API size_t fc_judgement_missing_kernels(const fc_missing_kernel **out, const fc_judgement *j, size_t t);

/* Why an object should fail a check, as bits. */
typedef enum fc_problem {
    FC_PROBLEM_INPUT = 1,     /* decoding stopped early (obj->error) */
    FC_PROBLEM_LOAD = 2,      /* a target's verdict is none (with opts->strict: or partial) */
    FC_PROBLEM_ARCH_LIST = 4, /* it does not hold exactly what the arch list builds */
    FC_PROBLEM_UNSEEN = 8,    /* with opts->strict: what is said of it rests on parts not seen
                                 or judged (fc_object_unseen) */
} fc_problem;
/* The fc_problem bits of OBJ, judged as J (NULL: only what OBJ itself says). */
FC_API unsigned fc_judgement_problems(const fc_judgement *j, const fc_object *obj);
/* Whether a report shows OBJ, judged as J: every object but one delivered only for its runtime
 * (obj->runtime_only), which is shown where that fails a check (FC_PROBLEM_LOAD, or
 * FC_PROBLEM_UNSEEN with opts->strict) and is otherwise no more than a file without CUDA code. */
FC_API bool fc_judgement_shows(const fc_judgement *j, const fc_object *obj);

/* What fatcheck could not see or judge of OBJ, judged as J (NULL: what OBJ itself says), as
 * bits; 0 when nothing. Each is said in the report as a note; with opts->strict each fails the
 * check (FC_PROBLEM_UNSEEN). */
typedef enum fc_unseen {
    FC_UNSEEN_PARTS = 1,     /* no container, and some data sections searched only in part
                                (sections_searched_in_part): "no CUDA code in the parts searched" */
    FC_UNSEEN_APPENDED = 2,  /* bytes appended after an ELF image, not read (appended_size) */
    FC_UNSEEN_RUNTIME = 4,   /* a static or unknown runtime of unknown CUDA version, or a static
                                one dated by its device code alone (floor_only) on a driver at
                                or above that, on a target whose driver is named: whether it
                                starts is not judged */
    FC_UNSEEN_CONTAINER = 8, /* in an image: whether the container starts depends on what is not
                                known (FC_REQUIRE_UNKNOWN) */
} fc_unseen;
FC_API unsigned fc_object_unseen(const fc_object *obj, const fc_judgement *j);

/* Whether container C was found kept as plain data (FC_ORIGIN_EMBEDDED, FC_ORIGIN_PTX_TEXT,
 * FC_ORIGIN_EMBEDDED_CUBIN):
 * loaded by the program itself, not by the CUDA runtime at start-up. */
FC_API bool fc_container_kept_as_data(const fc_container *c);
/* The section whose containers the CUDA runtime registers: .nv_fatbin (.nv_fatb in PE
 * images), else __nv_relfatbin; NULL when OBJ has neither. */
FC_API const char *fc_object_registered_section(const fc_object *obj);

/* ---- Advice ----------------------------------------------------------------------------- */

/* The compute capabilities a file needs built to run natively on every target: the plain
 * cubins of OBJ's containers not kept as data (OBJ may be NULL) and the targets', ascending,
 * without repeats. Returns how many were written to OUT (at most MAX). */
FC_API size_t fc_covering_ccs(unsigned *out, size_t max, const fc_object *obj, const fc_target *targets,
                              size_t n_targets);

/* One set of compute capabilities in each spelling a build takes; with PTX, the last also as
 * PTX. Strings too long for a field are cut. */
typedef struct fc_build_flags {
    char torch[256];  /* TORCH_CUDA_ARCH_LIST: "8.0;9.0+PTX" */
    char cmake[256];  /* CMake CUDA_ARCHITECTURES: "80-real;90" */
    char nvcc[1024];  /* nvcc -gencode flags */
} fc_build_flags;
FC_API void fc_build_flags_format(fc_build_flags *out, const unsigned *ccs, size_t n, bool ptx);

/* The last CUDA major that builds code for CC once a newer one no longer does (CUDA 11
 * dropped 3.0/3.2, CUDA 12 3.5/3.7, CUDA 13 5.x, 6.x, 7.0 and 7.2), or 0 while the newest
 * still does; and the oldest compute capability CUDA MAJOR builds. */
FC_API int fc_last_cuda_building(unsigned cc);
FC_API unsigned fc_oldest_cc_built_by(int major);
/* The CUDA major that built the judged file: its static runtime's, a shared runtime's from
 * CUDA 11 on, else its newest PTX's; 0 when nothing tells. */
FC_API int fc_judgement_built_by(const fc_judgement *j);
/* Whether OBJ is one of NVIDIA's own libraries (cuBLAS, cuDNN, NCCL...): rebuilding it is no
 * advice anyone can follow. Writes its name ("libcublasLt") to BUF and returns BUF, or NULL. */
FC_API const char *fc_nvidia_library(char *buf, size_t size, const fc_object *obj);
/* Whether OBJ is PyTorch's own CUDA library (libtorch_cuda, libc10_cuda). */
FC_API bool fc_torch_library(const fc_object *obj);

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_VERDICT_H */
