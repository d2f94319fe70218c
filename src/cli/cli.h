/* cli.h - what the fatcheck command's files share: output modes and the renderers. */
#ifndef FC_CLI_H
#define FC_CLI_H

#include <stdio.h>

#include "accept.h"
#include "escape.h"
#include "fatcheck.h"
#include "oom.h"
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
    char detect_unjudged[720];  /* what of the local GPUs could not be judged: asking them failed
                                   (timed out, died, could not start) or some had no compute
                                   capability to read; "" when nothing. --strict fails it */
    fc_detection *detecting;    /* the local GPUs being asked (targets_begin), until targets_end */
    /* --torch-extensions: the extension being scanned, and the current Python and torch */
    bool torch_mode;
    const fc_torch_extension *torch_ext;
    torch_env env;              /* env.python "" when unknown */
    /* What directory walks passed over unread (fc_options.on_skip): said once, at the end */
    size_t skipped_links;       /* directories behind symlinks not followed (-L follows) */
    size_t skipped_packages;    /* packages not opened (--packages opens them) */
    /* --accept: the rules, and for the object being rendered the rule that accepts each
     * target's verdict (or NULL); set by main.c before each object is rendered */
    accept_rules *accept;
    const accept_rule *accepted[FC_MAX_TARGETS];
    /* --gpu all: the summary shows each file's coverage (coverage.c), not a verdict per target */
    bool coverage;
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
    OUT_JSON,      /* --json, --format=json */
    OUT_CUOBJDUMP, /* --list-elf / --list-ptx */
    OUT_GITHUB,    /* --format=github: workflow-command annotations */
    OUT_JUNIT,     /* --format=junit: JUnit XML */
    OUT_MARKDOWN,  /* --format=markdown: a table for a step summary or a merge-request comment */
} output_mode;

/* What a target's verdict on a file means for a check, in every output and the exit status. */
typedef enum outcome {
    OUTCOME_NO_CODE,  /* nothing to load or link */
    OUTCOME_OK,
    OUTCOME_PARTIAL,  /* partial, without --strict: said, not failing */
    OUTCOME_FAIL,     /* none; with --strict, partial too */
    OUTCOME_ACCEPTED, /* partial or none, accepted by an --accept rule (cfg->accepted) */
} outcome;

/* Target T's outcome on the object being rendered, judged as J (outcome.c). */
outcome target_outcome(const config *cfg, const fc_judgement *j, size_t t);
/* fc_judgement_problems, less the load failures that --accept rules accept. */
unsigned object_problems(const config *cfg, const fc_object *obj, const fc_judgement *j);
/* With --quiet, whether OBJ is left out: it has no problem (object_problems), is no stale
 * torch extension, and nothing of it went unseen or unjudged (fc_object_unseen: what its
 * report says so is kept, for CI logs read --quiet output; review R18). */
bool quiet_hides(const config *cfg, const fc_object *obj, const fc_judgement *j);
/* With --strict, one line on ERR per thing not seen or judged of OBJ (fc_object_unseen): why
 * it fails the check (exit 3). */
void say_unseen(FILE *err, const fc_object *obj, const fc_judgement *j);
/* The last fc_unseen bit: each from FC_UNSEEN_PARTS to it is said on its own. */
#define UNSEEN_LAST FC_UNSEEN_CONTAINER
/* What BIT (one fc_unseen bit of OBJ) leaves unseen, as the sentence said after OBJ's label
 * ("8,192 bytes appended after the ELF image were not read"), in BUF; every output says it
 * with these words. */
const char *unseen_sentence(const fc_object *obj, unsigned bit, char *buf, size_t size);
/* BIT's short name, for a JUnit test case: "appended bytes". */
const char *unseen_name(unsigned bit);
/* "seen", "judged" or "seen or judged": what the bits U (fc_object_unseen) say was not done. */
const char *unseen_what(unsigned u);
/* Fills cfg->accepted for OBJ, judged as J, counting each rule's use. */
void accept_object(config *cfg, const fc_object *obj, const fc_judgement *j);
/* Says each rule that accepted nothing in the run, one line each on ERR; returns how many. */
size_t report_stale_rules(FILE *err, const config *cfg);
/* Whether rule A is stale: it accepted nothing, though its target (any, or one of its compute
 * capability) was judged in this run. A rule for a target not judged here is not: a pipeline
 * whose jobs judge different GPUs shares one rules file. (Inline: json_report.c, which the
 * Python package links too, asks it.) */
static inline bool rule_stale(const config *cfg, const accept_rule *a)
{
    if (a->used || a->withheld)
        return false;
    for (size_t t = 0; a->cc && t < cfg->judge.n_targets; t++)
        if (cfg->judge.targets[t].cc == a->cc)
            return true;
    return !a->cc;
}

typedef struct renderer renderer;

/* Every renderer gets the objects in scan order, then finish. Each input named on the
 * command line is announced with begin_input before its objects. Messages go to standard
 * error from main.c, not from renderers. J is NULL when the object could not be judged. */
struct renderer {
    void (*begin_input)(renderer *r, const char *path);
    void (*object)(renderer *r, const fc_object *obj, const fc_judgement *j);
    void (*error)(renderer *r, const fc_error *err);
    /* Optional: an input read whole that cannot show it was all there (a tar without its
     * end-of-archive marker), said on standard error as a warning; with --strict it comes to
     * error instead. */
    void (*warning)(renderer *r, const fc_error *warning);
    /* Optional: after OBJ, some of its images could not be read (--kernels, --extract; said
     * on standard error, exit 3). The CI formats say it where the check is read. */
    void (*images_unread)(renderer *r, const fc_object *obj);
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
renderer *render_github_new(FILE *out, const config *cfg);
renderer *render_junit_new(FILE *out, const config *cfg);
renderer *render_markdown_new(FILE *out, const config *cfg);
void render_free(renderer *r);

/* What a file without containers is: ": no CUDA code", qualified when some data section was
 * searched only in its head (format.c). */
void print_no_code(FILE *out, const fc_object *o);

/* Formatting helpers (format.c). */
const char *fmt_count(unsigned long long n, char *buf, size_t size); /* 12,345 */
const char *cc_text(unsigned cc, char *buf, size_t size);            /* 9.0 */
/* What directory walks passed over unread, of KIND (fc_options.on_skip), in BUF: "2 packages not
 * opened (--packages opens them)"; NULL when none was. Said on standard error and in the CI
 * formats. */
const char *skipped_sentence(const config *cfg, fc_skip_kind kind, char *buf, size_t size);
/* Whether --strict fails what walks passed over of KIND (packages not opened: exit 3; tally.c). */
bool skipped_fails(const config *cfg, fc_skip_kind kind);
void json_string(FILE *out, const char *s);                          /* "..." or null */
/* NAME ("...,\"key\":") and S as a JSON string, with a key_bytes sibling when S is not UTF-8. */
void json_field(FILE *out, const char *name, const char *s);
/* Verdict lines for the summary (verdict_text.c). */
void print_verdicts(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j);
/* Target T's verdict in one sentence, as the summary shows it after the target's label: "none,
 * no module can load (no kernel image for sm_90): every kernel launch fails with \"...\"", no
 * newline; false, printing nothing, when there is nothing to say (no code). */
bool print_verdict_sentence(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j, size_t t);
/* With --arch-list: '  arch list "8.0;9.0": missing sm_90 in 1 of 2 containers' and a newline;
 * false, printing nothing, when there is nothing to check. */
bool print_arch_check(FILE *out, const config *cfg, const fc_judgement *j);
/* --gpu all: the line "  GPUs: native sm_80 sm_90; compatible sm_86-sm_89; ..." (coverage.c). */
void print_coverage(FILE *out, const config *cfg, const fc_judgement *j);
/* The same groups alone, "native sm_80 sm_90; none sm_37-sm_75" (no newline); false, printing
 * nothing, when no target has anything to load. */
bool write_coverage(FILE *out, const config *cfg, const fc_judgement *j);
/* In a string the caller frees (NULL when out of memory or nothing is said): target T's
 * verdict sentence (print_verdict_sentence), and the arch-list check without its indent and
 * newline (print_arch_check). */
char *verdict_sentence(const config *cfg, const fc_object *obj, const fc_judgement *j, size_t t);
char *arch_check_sentence(const config *cfg, const fc_judgement *j);
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
/* "driver for CUDA 12.4", or "driver assumed new enough for any PTX (name one with --driver)" */
void print_driver(FILE *out, const config *cfg);
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
