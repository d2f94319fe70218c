/* render_github.c - --format=github: GitHub Actions workflow commands (docs/ci.md). Each
 * problem is an annotation on the file it is about: ::error for what fails the check (a
 * verdict of none, or partial with --strict; an input that could not be read; an arch-list
 * mismatch; with --strict, what was not seen or judged), ::warning for what --strict would
 * fail (a partial verdict, what was not seen or judged, a tar that may have been cut short)
 * and a stale --accept rule, ::notice for an accepted verdict and for what walks passed over.
 * Nothing is printed for what is fine. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_view.h"

/* Workflow commands end at a newline: in the message, '%', CR and LF are written as %25, %0D
 * and %0A (as @actions/core's escapeData); in a property also ':' and ',' (escapeProperty).
 * Everything is escaped as text first (escape.h; text escaped already is left as it is):
 * nothing unprintable reaches the log, and no line break. */
static void put_escaped(FILE *out, const char *s, bool property)
{
    for (const char *p = escaped(s); *p; p++) {
        if (*p == '%')
            fputs("%25", out);
        else if (*p == '\r')
            fputs("%0D", out);
        else if (*p == '\n')
            fputs("%0A", out);
        else if (property && *p == ':')
            fputs("%3A", out);
        else if (property && *p == ',')
            fputs("%2C", out);
        else
            fputc(*p, out);
    }
}

/* ::LEVEL file=FILE,line=LINE,title=TITLE::MESSAGE; FILE, LINE (0) and TITLE may be absent. */
static void annotate(FILE *out, const char *level, const char *file, unsigned line, const char *title,
                     const char *message)
{
    fprintf(out, "::%s", level);
    const char *sep = " ";
    if (file) {
        fputs(" file=", out);
        put_escaped(out, quoted(file), true); /* quoted as the text output quotes names (rt8 finding 8) */
        sep = ",";
        if (line)
            fprintf(out, ",line=%u", line);
    }
    if (title) {
        fprintf(out, "%stitle=", sep);
        put_escaped(out, title, true);
    }
    fputs("::", out);
    put_escaped(out, message, false);
    fputc('\n', out);
}

/* The file an annotation points at: the one on disk (a package or an image for its members);
 * none for standard input. */
static const char *annotated_file(const fc_object *o)
{
    return strcmp(o->path, "(standard input)") == 0 ? NULL : o->path;
}

/* --gpu all: one annotation per file, at the level of its worst target, its coverage said. */
static void annotate_coverage(FILE *out, const config *cfg, const fc_object *o, const fc_judgement *j, const char *file)
{
    bool fail = false, partial = false, accepted = false;
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        outcome oc = target_outcome(cfg, j, t);
        fail |= oc == OUTCOME_FAIL;
        partial |= oc == OUTCOME_PARTIAL;
        accepted |= oc == OUTCOME_ACCEPTED;
    }
    if (!fail && !partial && !accepted)
        return;
    char *groups = NULL, *message = NULL;
    size_t len = 0;
    FILE *s = memstream_open(&groups, &len);
    if (!s)
        return;
    write_coverage(s, cfg, j);
    if (memstream_close(s, &groups) && (message = str_printf("%s: %s", quoted(o->label), groups)))
        annotate(out, fail ? "error" : partial ? "warning" : "notice", file, 0, "fatcheck: GPU coverage", message);
    free(message);
    free(groups);
}

/* What of O was not seen or judged (fc_object_unseen), each on its own: an ::error with
 * --strict, which fails it (exit 3), else a ::warning, as a partial verdict is. */
static void annotate_unseen(FILE *out, const config *cfg, const fc_object *o, const fc_judgement *j, const char *file)
{
    unsigned u = fc_object_unseen(o, j);
    for (unsigned bit = 1; bit <= UNSEEN_LAST; bit <<= 1) {
        char said[256], *message = NULL;
        if (!(u & bit) || !(message = str_printf("%s: %s%s", quoted(o->label), unseen_sentence(o, bit, said, sizeof said),
                                                 cfg->judge.strict ? "; --strict fails it" : " (--strict fails it)")))
            continue;
        annotate(out, cfg->judge.strict ? "error" : "warning", file, 0,
                 bit & (FC_UNSEEN_PARTS | FC_UNSEEN_APPENDED) ? "fatcheck: not all seen" : "fatcheck: not judged",
                 message);
        free(message);
    }
}

static void github_object(renderer *r, const fc_object *o, const fc_judgement *j)
{
    const config *cfg = r->cfg;
    const char *file = annotated_file(o);
    if (o->error)
        annotate(r->out, "error", file, 0, "fatcheck: could not be decoded", o->error);
    annotate_unseen(r->out, cfg, o, j, file);
    char *platforms = platforms_sentence(o), *said = NULL;
    if (platforms && (said = str_printf("%s: %s", quoted(o->label), platforms)))
        annotate(r->out, "warning", file, 0, "fatcheck: platforms not judged", said);
    free(said);
    free(platforms);
    if (j && cfg->coverage) {
        annotate_coverage(r->out, cfg, o, j, file);
        j = NULL; /* the arch list is no concern of --gpu all */
    }
    for (size_t t = 0; j && t < cfg->judge.n_targets; t++) {
        outcome oc = target_outcome(cfg, j, t);
        if (oc == OUTCOME_OK || oc == OUTCOME_NO_CODE)
            continue;
        char *sentence = verdict_sentence(cfg, o, j, t); /* NULL when out of memory: noted (oom.h) */
        char label[300], title[400], *message = NULL;
        target_label(&cfg->judge.targets[t], label, sizeof label);
        const char *status = fc_verdict_status_name(fc_judgement_verdict(j, t)->status);
        snprintf(title, sizeof title, "fatcheck: %s on %s%s", status, label, oc == OUTCOME_ACCEPTED ? ", accepted" : "");
        const accept_rule *a = cfg->accepted[t];
        message = oc == OUTCOME_ACCEPTED
                      ? str_printf("%s: %s: %s; accepted (%s:%u): %s", quoted(o->label), label,
                                   sentence ? sentence : status, quoted(cfg->accept->path), a->line, a->reason)
                      : str_printf("%s: %s: %s", quoted(o->label), label, sentence ? sentence : status);
        if (message) {
            annotate(r->out, oc == OUTCOME_FAIL ? "error" : oc == OUTCOME_PARTIAL ? "warning" : "notice", file, 0,
                     title, message);
            free(message);
        }
        free(sentence);
    }
    char *arch = j ? arch_check_sentence(cfg, j) : NULL;
    if (arch && (fc_judgement_problems(j, NULL) & FC_PROBLEM_ARCH_LIST)) {
        char *message = NULL;
        if ((message = str_printf("%s: %s", quoted(o->label), arch)))
            annotate(r->out, "error", file, 0, "fatcheck: not what the arch list builds", message);
        free(message);
    }
    free(arch);
}

static void github_error(renderer *r, const fc_error *e)
{
    annotate(r->out, "error", e->path && strcmp(e->path, "(standard input)") != 0 ? e->path : NULL, 0,
             "fatcheck: could not be read", e->message);
}

/* A tar that may have been cut short (--strict makes it an error, through github_error). */
static void github_warning(renderer *r, const fc_error *w)
{
    char *message = str_printf("%s (--strict fails it)", w->message);
    if (!message)
        return;
    annotate(r->out, "warning", w->path && strcmp(w->path, "(standard input)") != 0 ? w->path : NULL, 0,
             "fatcheck: may be incomplete", message);
    free(message);
}

static void github_images_unread(renderer *r, const fc_object *o)
{
    char *message = str_printf("%s: some of its images could not be read (standard error names them)",
                               quoted(o->label));
    if (!message)
        return;
    annotate(r->out, "error", annotated_file(o), 0, "fatcheck: images could not be read", message);
    free(message);
}

static void github_begin(renderer *r, const char *path)
{
    (void)r;
    (void)path;
}

static void github_finish(renderer *r)
{
    const config *cfg = r->cfg;
    char said[128];
    for (int kind = FC_SKIP_SYMLINKED_DIRECTORY; kind <= FC_SKIP_PACKAGE; kind++)
        if (skipped_sentence(cfg, (fc_skip_kind)kind, said, sizeof said))
            annotate(r->out, skipped_fails(cfg, (fc_skip_kind)kind) ? "error" : "notice", NULL, 0,
                     "fatcheck: not searched", said);
    for (size_t i = 0; cfg->accept && i < cfg->accept->n; i++) {
        const accept_rule *a = &cfg->accept->rules[i];
        char *message = NULL;
        if (!rule_stale(cfg, a) || !(message = str_printf("no %s verdict of %s on %s to accept: remove the rule",
                                                          a->status == FC_VERDICT_NONE ? "none or partial" : "partial",
                                                          a->pattern, a->cc ? a->target : "any target")))
            continue;
        annotate(r->out, "warning", cfg->accept->path, a->line, "fatcheck: stale exception", message);
        free(message);
    }
}

renderer *render_github_new(FILE *out, const config *cfg)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->begin_input = github_begin;
    r->object = github_object;
    r->error = github_error;
    r->warning = github_warning;
    r->images_unread = github_images_unread;
    r->finish = github_finish;
    r->out = out;
    r->cfg = cfg;
    if (!cfg->judge.n_targets && cfg->no_target_reason[0]) {
        char *message = str_printf("not judging any GPU: %s", cfg->no_target_reason);
        if (message)
            annotate(out, "warning", NULL, 0, "fatcheck: no target GPU", message);
        free(message);
    }
    if (cfg->detect_unjudged[0]) {
        char *message = str_printf("%s%s", cfg->detect_unjudged, cfg->judge.strict ? "; --strict fails it"
                                                                                   : " (--strict fails it)");
        if (message)
            annotate(out, cfg->judge.strict ? "error" : "warning", NULL, 0, "fatcheck: local GPUs not judged", message);
        free(message);
    }
    return r;
}
