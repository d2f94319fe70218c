/* cli.h - what the fatcheck command's files share: output modes and the renderers. */
#ifndef FC_CLI_H
#define FC_CLI_H

#include <stdio.h>

#include "escape.h"
#include "fatcheck.h"
#include "torch_env.h"

/* The --json document's version (docs/json.md): 2 since link inputs and the runtime's driver
 * requirement were judged. */
#define SCHEMA_VERSION 2

/* Exit codes (documented in --help, README.md and fatcheck(1)). */
enum {
    EXIT_OK = 0,          /* every input was read and decoded */
    EXIT_LOAD_RISK = 1,   /* a target has a file with status none (with --strict: or partial) */
    EXIT_USAGE = 2,       /* bad command line */
    EXIT_INPUT = 3,       /* some input could not be read or decoded (the rest was reported) */
    EXIT_INTERNAL = 4,    /* out of memory, or the output (or an --extract image) could not be written */
    EXIT_ARCH_LIST = 5,   /* --arch-list: a file does not hold exactly what the list builds */
    EXIT_NO_TARGETS = 6,  /* --require-targets: no target named, none detected */
};

/* What a run judges against and how its targets came to be (what every report shows), and the
 * text output's own settings. */
typedef struct config {
    fc_judge_options judge;     /* targets, JIT policy, arch list, strict, kernels, prober, limits */
    fc_arch_list arch_list;     /* --arch-list, parsed; judge.arch_list points here when given */
    const char *arch_list_text;
    char no_target_reason[640]; /* why there are no targets, when there are none */
    bool detect_ran;            /* the local GPUs were looked for */
    const char *detected_by;    /* "nvml", "driver", or NULL: who answered */
    char detect_note[320];      /* fc_detect_info.note: what CUDA_VISIBLE_DEVICES left out */
    char detect_driver_reason[320]; /* fc_detect_info.driver_reason */
    /* --torch-extensions: the extension being scanned, and the current Python and torch */
    bool torch_mode;
    const fc_torch_extension *torch_ext;
    torch_env env;              /* env.python "" when unknown */
    /* What directory walks passed over unread (fc_options.on_skip): said once, at the end */
    size_t skipped_links;       /* directories behind symlinks not followed (-L follows) */
    size_t skipped_packages;    /* packages not opened (--packages opens them) */
    /* text output */
    bool quiet;                 /* only files with problems */
    bool colour;                /* colour the verdicts */
} config;

/* Whether the torch extension being scanned was built for another Python or CUDA than the
 * current one: 1, 0, or -1 when that cannot be told (fc_torch_extension_stale). */
static inline int torch_ext_stale(const config *cfg)
{
    return fc_torch_extension_stale(cfg->torch_ext, cfg->env.python, cfg->env.torch_cuda);
}

typedef enum output_mode {
    OUT_SUMMARY,   /* default: a few lines per file */
    OUT_ENTRIES,   /* -l: a line per entry */
    OUT_JSON,      /* --json */
    OUT_CUOBJDUMP, /* --list-elf / --list-ptx */
} output_mode;

typedef struct renderer renderer;

/* Every renderer gets the objects in scan order, then finish. Each input named on the
 * command line is announced with begin_input before its objects. Messages go to standard
 * error from main.c, not from renderers. J is NULL when the object could not be judged. */
struct renderer {
    void (*begin_input)(renderer *r, const char *path);
    void (*object)(renderer *r, const fc_object *obj, const fc_judgement *j);
    void (*error)(renderer *r, const fc_error *err);
    void (*finish)(renderer *r);
    FILE *out;
    FILE *err;
    const config *cfg;
    void *state;
};

renderer *render_summary_new(FILE *out, const config *cfg);
renderer *render_entries_new(FILE *out, const config *cfg);
renderer *render_json_new(FILE *out, const config *cfg);
renderer *render_cuobjdump_new(FILE *out, FILE *err, int list_elf, int list_ptx);
void render_free(renderer *r);

/* What a file without containers is: ": no CUDA code", qualified when some data section was
 * searched only in its head (format.c). */
void print_no_code(FILE *out, const fc_object *o);

/* Formatting helpers (format.c). */
const char *fmt_count(unsigned long long n, char *buf, size_t size); /* 12,345 */
const char *cc_text(unsigned cc, char *buf, size_t size);            /* 9.0 */
void json_string(FILE *out, const char *s);                          /* "..." or null */
/* NAME ("...,\"key\":") and S as a JSON string, with a key_bytes sibling when S is not UTF-8. */
void json_field(FILE *out, const char *name, const char *s);
/* Verdict lines for the summary (verdict_text.c). */
void print_verdicts(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j);
/* "  runtime: libcudart.so.13; needs a driver for CUDA 13.0 or newer (>= 580.65.06)" */
void print_runtime(FILE *out, const fc_object *obj, const fc_judgement *j);
void target_label(const fc_target *t, char *buf, size_t size);
/* --torch-extensions: the header before an extension, and its fix after the verdicts. */
void print_torch_header(FILE *out, const config *cfg);
void print_torch_fix(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j);
/* ANSI colour around a verdict word when cfg->colour. */
const char *colour_on(const config *cfg, const char *word);
const char *colour_off(const config *cfg);
/* "judging for ..." header and the closing advice (advice.c). */
void print_targets_header(FILE *out, const config *cfg);
void print_advice(FILE *out, const config *cfg);
/* Whether a file's judgement calls for the closing advice: a target fails some module, or
 * the file does not hold what --arch-list builds. */
bool advice_needed(const config *cfg, const fc_judgement *j);

/* --arch-list with no files (explain.c). */
int explain_arch_list(FILE *out, const config *cfg, bool json);

/* Prints one sentence (ending in a newline) wrapped at 80 columns, continuation lines
 * indented by four; quoted text and parentheses are kept whole. */
void wrap_print(FILE *out, const char *s);

/* What cuobjdump lists of an object, and the name it gives image E, the Nth of its kind. */
bool cuobjdump_lists(const fc_object *o, const fc_container *c);
void cuobjdump_name(const fc_object *o, const fc_entry *e, unsigned n, char *buf, size_t size);
/* The same name in two parts: the stem from a file name or identifier, and the rest
 * (".N.ARCH.cubin"). */
void cuobjdump_name_parts(const fc_object *o, const fc_entry *e, unsigned n, char *stem, size_t stem_size,
                          char *tail, size_t tail_size);

/* The cuobjdump-style stem of a path: its last component without the last extension. */
void path_stem(const char *path, char *buf, size_t size);

#endif
