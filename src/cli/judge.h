/* judge.h - targets, and what the driver would do with each container on each of them. */
#ifndef FC_JUDGE_H
#define FC_JUDGE_H

#include "fatcheck.h"
#include "kernel_view.h"
#include "torch_env.h"

#define MAX_TARGETS 64

/* Everything the command line says about targets. */
typedef struct config {
    fc_target targets[MAX_TARGETS];
    int device[MAX_TARGETS];   /* local device number for detected GPUs, else -1 */
    size_t n_targets;
    bool driver_assumed;       /* named targets without --driver */
    fc_jit_policy jit;
    bool have_arch_list;
    fc_arch_list arch_list;
    const char *arch_list_text;
    bool strict;
    bool probe;
    fc_prober *prober;
    char no_target_reason[640]; /* why there are no targets, when there are none */
    bool detect_ran;            /* the local GPUs were looked for */
    const char *detected_by;    /* "nvml", "driver", or NULL: who answered */
    char detect_note[320];      /* fc_detect_info.note: what CUDA_VISIBLE_DEVICES left out */
    char detect_driver_reason[320]; /* fc_detect_info.driver_reason */
    /* --torch-extensions: the extension being scanned, and the current Python/torch */
    bool quiet;              /* text: only files with problems */
    bool kernels;            /* --kernels: read every image's kernels */
    const fc_options *opts;
    bool colour;             /* text: colour the verdicts */
    bool torch_mode;
    const fc_torch_extension *torch_ext;
    torch_env env;
    bool env_known;
    /* What directory walks passed over unread (fc_options.on_skip): said once, at the end */
    size_t skipped_links;    /* directories behind symlinks not followed (-L follows) */
    size_t skipped_packages; /* packages not opened (--packages opens them) */
} config;

typedef enum verdict_status {
    VERDICT_NO_CODE = 0, /* nothing the driver loads: no containers, or LTO-IR only */
    VERDICT_OK,          /* every module loads */
    VERDICT_PARTIAL,     /* some do not */
    VERDICT_NONE,        /* none does: every kernel launch fails */
} verdict_status;

typedef struct verdict {
    verdict_status status;
    size_t modules;      /* containers the driver would be asked to load */
    size_t native, compatible, jit;
    size_t no_binary, unsupported_ptx, jit_disabled, invalid_ptx;
    size_t relocatable;  /* relocatable code registered as a module: fails at first use */
    size_t link_inputs;  /* relocatable code a device linker takes in (counted beside modules) */
    size_t linkable;     /* of them, those with an image the linker can use for the target */
    size_t linked_via[4]; /* linkable ones by what the linker takes: indexed by fc_link_via */
    size_t left_out;     /* __nv_relfatbin link inputs of a file that has .nv_fatbin */
    bool runtime_fails;  /* the runtime it needs cannot start on the target's driver: none */
    bool unlinked;       /* its -rdc code was never device-linked: it cannot be loaded: none */
    /* In a container image: whether the NVIDIA Container Toolkit starts its container on the
     * target (its NVIDIA_REQUIRE_* values); refused (unmet or invalid) makes it none. */
    fc_require_result container;
    char container_why[240];
    uint32_t compatible_arch; /* the newest older-minor arch used, for the note */
    uint32_t jit_arch;        /* the newest PTX arch compiled, for the note */
} verdict;

typedef struct probe_result {
    int code;            /* CUresult, -1 crash, -2 no driver in the child, -3 not probed */
    bool compared;       /* false for link inputs: shown, not compared */
    bool agrees;
} probe_result;

/* One expected image of an arch list, and how many registered containers lack it. */
typedef struct arch_expectation {
    fc_image_kind kind;
    unsigned cc;
    bool arch_specific;
    size_t lacking;
} arch_expectation;

typedef struct judgement {
    const config *cfg;
    size_t n_containers;
    fc_load *loads;          /* n_containers x n_targets, row per container */
    fc_link *links;          /* same shape: for link inputs, what a device linker takes */
    probe_result *probes;    /* same shape, or NULL */
    bool *unused;            /* per container: an __nv_relfatbin link input the runtime never loads */
    verdict verdicts[MAX_TARGETS];
    size_t registered;       /* containers the CUDA runtime registers (not embedded) */
    fc_runtime_need runtime; /* the runtime and CUDA libraries it needs, and so the driver */
    /* PTX ISA requirement of the file: the newest ISA among its PTX */
    unsigned ptx_isa_major, ptx_isa_minor;
    /* arch list check */
    arch_expectation expected[128];
    size_t n_expected;
    char unexpected[64][16]; /* image names present but not asked for */
    size_t n_unexpected;
    bool arch_list_ok;
    size_t probe_disagreements, probe_compared, probe_crashes;
    kernel_view *kv;         /* --kernels */
} judgement;

judgement *judge_object(const config *cfg, const fc_object *obj);
/* A problem worth showing with --quiet: a decoding error, a verdict of none (or partial
 * with --strict), an arch list mismatch, a stale torch extension. */
bool object_has_problem(const config *cfg, const fc_object *obj, const judgement *j);
bool torch_ext_stale(const config *cfg);
void judgement_free(judgement *j);

/* The TORCH_CUDA_ARCH_LIST spelling of a set of compute capabilities; the last gets +PTX
 * when PTX is true. Written into BUF. */
void format_torch_arch_list(const unsigned *ccs, size_t n, bool ptx, char *buf, size_t size);
/* The same set in each spelling a build takes. */
typedef struct build_flags {
    char torch[256]; /* TORCH_CUDA_ARCH_LIST */
    char cmake[256]; /* CMake CUDA_ARCHITECTURES */
    char nvcc[1024]; /* nvcc -gencode flags */
} build_flags;
void format_build_flags(const unsigned *ccs, size_t n, bool ptx, build_flags *out);
/* "9.0" */
const char *cc_text(unsigned cc, char *buf, size_t size);
/* The compute capabilities a file needs built to run natively on every target: its own
 * plain cubins' and the targets', ascending, without repeats. Returns how many. */
size_t covering_ccs(const config *cfg, const fc_object *obj, unsigned *out, size_t max);
/* .nv_fatbin, and __nv_relfatbin (-rdc link inputs), by their ELF names or as PE images cut
 * them to 8 characters (.nv_fatb, __nv_rel). */
/* Whether the CUDA runtime loads C at start-up: not what a program keeps as data and loads
 * itself (embedded containers, PTX kept as text). */
bool container_registered(const fc_container *c);
bool section_is_fatbin(const char *name);
bool section_is_relfatbin(const char *name);

/* The last CUDA major that can build code for CC when a newer one no longer can (CUDA 11
 * dropped 3.0/3.2, CUDA 12 3.5/3.7, CUDA 13 5.x, 6.x, 7.0 and 7.2: compat-rules.md, 7), or 0
 * while the newest still can; and the oldest architecture CUDA MAJOR builds. */
int last_major_building(unsigned cc);
unsigned first_cc_built_by(int major);

#endif
