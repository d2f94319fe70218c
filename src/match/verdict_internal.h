/* verdict_internal.h - the judgement handle, shared by verdict.c, missing_kernels.c and
 * advice.c; and the refinement of a prediction for one driver (module/link_state.c). */
#ifndef FC_VERDICT_INTERNAL_H
#define FC_VERDICT_INTERNAL_H

#include "fatcheck.h"

#define FC_ARCH_EXPECTED_MAX 128
#define FC_ARCH_UNEXPECTED_MAX 64

struct fc_judgement {
    const fc_judge_options *opts;
    size_t n_containers, n_targets;
    fc_load *loads;          /* n_containers x n_targets, a row per container */
    fc_link *links;          /* same shape: for link inputs, what a device linker takes */
    bool *unseen;            /* same shape: the load is that of an image the driver might choose
                                by an order never seen, which fails (rule 3) */
    fc_probe_result *probes; /* same shape, or NULL */
    bool probed;
    fc_probe_totals probe_totals;
    bool *unused;            /* per container: fc_judgement_unused */
    bool *idle;              /* per container: fc_judgement_defines_nothing */
    bool *empty;             /* per container: no module (rule 10, FC_LOAD_EMPTY) */
    bool relfatbin;          /* the object holds -rdc objects (__nv_relfatbin) */
    /* Per target, of the -rdc objects beside .nv_fatbin that hold code: how many the CUDA
     * runtime can link itself and how many it cannot (rdc_objects_count) */
    size_t rdc_linkable[FC_MAX_TARGETS], rdc_unlinkable[FC_MAX_TARGETS];
    uint8_t *rdc_links;      /* n_containers x n_targets, where the file has -rdc objects: 1 where
                                the runtime's own link takes that object for that target */
    uint8_t *rdc_kernels;    /* per container, read when rule 12 asks: 0 not read, 1 an -rdc
                                object that defines a kernel (or may), 2 one that defines none */
    fc_verdict verdicts[FC_MAX_TARGETS];
    size_t registered;       /* containers not kept as data */
    fc_runtime_need runtime;
    fc_ptx_need ptx;
    bool have_arch;
    fc_arch_check arch;
    fc_arch_expectation expected[FC_ARCH_EXPECTED_MAX];
    char unexpected[FC_ARCH_UNEXPECTED_MAX][16];
    const char *unexpected_names[FC_ARCH_UNEXPECTED_MAX];
    /* opts->kernels: every entry's kernels, in container order, and per target those missing */
    fc_kernel_list **lists;  /* NULL where status says why */
    fc_status *status;
    size_t n_lists;
    size_t *first;           /* per container: index of its first entry in lists */
    fc_missing_kernel **missing; /* per target, sorted by demangled name */
    size_t *n_missing, *missing_cap;
};

/* Rule 5 (verdict.c): whether the CUDA runtime, linking -rdc object C (an unused
 * __nv_relfatbin container) itself, has an image of it for target T; whether container C is
 * the device link step's output and cannot load on T as it is; and whether, so, the runtime
 * links the objects instead, each with such an image (the output counts as loading). */
bool fc_runtime_links_object(const fc_judgement *j, size_t c, size_t t);
bool fc_device_link_fails(const fc_judgement *j, const fc_container *ct, size_t c, size_t t);
bool fc_runtime_links_instead(const fc_judgement *j, const fc_container *ct, size_t c, size_t t);

/* Reads the kernels of every entry of OBJ and, with J's predictions, works out per target the
 * kernels no loadable module provides (missing_kernels.c). FC_ERR_NOMEM. */
fc_status fc_missing_kernels_find(fc_judgement *j, const fc_object *obj, const fc_options *scan);
void fc_missing_kernels_free(fc_judgement *j);

/* What a reading of PTX text tells about loading it (checked with ptxas 13.0 here, and the
 * driver's JIT on tests/oracle's images). */
typedef struct ptx_facts {
    bool calls_out;      /* a function another translation unit must define: declared .extern
                            or .weak without a body, defined nowhere in the text */
    bool needs_outside;  /* that, or a variable declared .extern (.shared aside) */
    bool extern_var;     /* a variable declared .extern (.shared aside) */
    bool damaged;        /* ptxas cannot read it: braces that do not close (text cut short, or
                            cut by a NUL, where the driver stops reading) */
    /* Bytes outside ASCII (before any NUL), which JITs of different releases take differently
     * (fc_refine_load_for): anywhere, and outside comments (in a string too). */
    bool non_ascii, non_ascii_in_code;
    /* The statements ptxas requires first, as the text gives them (the JIT takes these, not
     * the entry header's): .version M.m, then .target naming the architecture. HEADED: both
     * were there; a module without them fails ("Missing .version directive"). */
    bool headed;
    unsigned isa_major, isa_minor;
    unsigned target_arch;     /* 0 when .target names no sm_NN */
    fc_variant target_variant;
    bool address_32;          /* .address_size 32 follows .target */
    bool debug_target;        /* .target names "debug" */
    bool debug_info;          /* a ".section .debug_..." holds DWARF for it */
} ptx_facts;

/* What fc_refine_load_for read of one PTX entry, kept while a container is judged for several
 * targets so that the text is read once, not once a target (a 70 MB module in cuSPARSELt's
 * libcusparseLt.so.0 took 90 ms a target to inflate and read on the H200). Zeroed before each
 * container. */
typedef struct fc_ptx_memo {
    const fc_entry *entry;  /* the entry the rest is about; NULL: nothing kept */
    bool whole;             /* read whole (ptx_scan) rather than for its bytes alone, when only
                               facts.non_ascii holds */
    bool readable;          /* its image could be read: FACTS holds */
    fc_status why;          /* else why not: FC_ERR_FORMAT for bytes that do not inflate */
    ptx_facts facts;
    const fc_entry *dated;  /* the cubin whose ELF header dated it (cubin_too_new), and... */
    int dated_release;      /* ...the CUDA release it names, or 0 */
} fc_ptx_memo;

/* The CUDA release whose toolchain wrote cubin E of OBJ: 13000 for ELF ABI 8
 * (fc_cubin_toolkit_cuda); for ABI 7, read from its ELF header, the ptxas release its
 * e_version gives times ten (bench/cubin_survey: 114 to 118 in CUDA 11.8's libraries, 120 to
 * 124 in CUDA 12.2 and 12.4 builds; CUDA 13's write 1), an LZ4 image's head inflated; 0 when
 * unknown. */
int fc_cubin_written_by(const fc_object *obj, const fc_entry *e);

/* fc_refine_load for a target whose driver supports CUDA DRIVER_CUDA (0: assumed new enough,
 * which fc_refine_load assumes): JITs of different releases read PTX differently. INFLATE: a
 * zstd cubin's own ELF header is inflated and read too (the kernel view, --strict). MEMO, when not NULL,
 * keeps what was read for the same container's next target. */
fc_load fc_refine_load_for(const fc_object *obj, const fc_container *c, fc_load l, int driver_cuda, bool inflate,
                           const fc_options *opts, fc_ptx_memo *memo);

/* Rule 5: whether the runtime's own link can take PTX entry E of an -rdc object for a target
 * whose driver supports CUDA DRIVER_CUDA (link_state.c): its text is read (MEMO keeps it for
 * the next target), and it must be readable by that driver's JIT (rule 6) and need no
 * variable from outside; *CALLS_OUT says whether it calls functions it does not define (other
 * than the driver's), which another object must then define (H200, review of 2026-12-02: a
 * call into another -rdc object linked, one into nothing failed with error 300). */
bool fc_rdc_ptx_links(const fc_object *obj, const fc_entry *e, const fc_options *opts, int driver_cuda,
                      fc_ptx_memo *memo, bool *calls_out);

/* A set of names, owned. */
typedef struct fc_names {
    char **items;
    size_t n, cap;
    bool failed; /* out of memory: incomplete */
} fc_names;
void fc_names_free(fc_names *s);
bool fc_names_has(const fc_names *s, const char *name);

/* The functions entry E of an -rdc object defines (a PTX body; a relocatable cubin's global or
 * weak function symbol with a section), into DEFINED, and, of PTX, those it declares without a
 * body that the driver does not supply, into NEEDED (link_state.c). False when the image
 * could not be read whole or the sets are incomplete. */
bool fc_rdc_functions(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_names *defined,
                      fc_names *needed);

/* Whether PTX entry E names a .target its .version predates (match.c): ptxas, and so the JIT,
 * refuses it. */
bool fc_ptx_isa_predates_target(const fc_entry *e);

/* Whether container C holds only images that define nothing a program can reach (no function,
 * no variable): uncompressed cubins of at most 64 KiB are read, and with INFLATE compressed
 * cubins and PTX of at most 16 KiB (link_state.c). nvcc 13's device link step leaves such a
 * cubin with code=sm_XX (review 8, C1); CUDA 12.4's and 13.0's cuFFT register one compressed;
 * a translation unit without kernels built -arch=compute_80 registers such PTX. */
bool fc_container_defines_nothing(const fc_object *obj, const fc_container *c, const fc_options *opts, bool inflate);
/* A rule of fc_judge's that reads an image could not allocate what it needed, and answered as
 * for an image it could not read: fc_judge then fails with FC_ERR_NOMEM rather than give that
 * verdict (a container that defines nothing was counted as a module that cannot load: partial,
 * exit 0, where the verdict is ok). For this thread's fc_judge. */
void fc_judge_out_of_memory(void);

/* The same of any container, link inputs too: whether an -rdc object holds code (a function a
 * relocatable cubin only refers to counts as code). */
bool fc_images_define_nothing(const fc_object *obj, const fc_container *c, const fc_options *opts, bool inflate);

#endif
