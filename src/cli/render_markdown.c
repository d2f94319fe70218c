/* render_markdown.c - --format=markdown: a table for $GITHUB_STEP_SUMMARY and merge-request
 * comments (docs/ci.md): a row per file, a column per target (with --gpu all, one coverage
 * column), then the problems in words (what was not seen or judged among them, marked on the
 * file's row), the inputs that could not be read or may have been cut short, what walks passed
 * over, and the stale --accept rules. With --quiet, only the files with problems get a row. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_view.h"

typedef struct markdown_state {
    FILE *notes; /* the problems, said after the table */
    char *notes_buf;
    size_t notes_len;
    FILE *errors; /* the inputs that could not be read */
    char *errors_buf;
    size_t errors_len;
    FILE *warnings; /* the inputs that may have been cut short */
    char *warnings_buf;
    size_t warnings_len;
    size_t rows;
} markdown_state;

/* S escaped as text (escape.h), then with a backslash before each character that could start
 * Markdown (CommonMark, GitHub's tables, math, mentions and references) inside a line: a name
 * prints as itself and cannot open a link, a code span, HTML, emphasis or a new table cell. */
static void put_md(FILE *out, const char *s)
{
    for (const char *p = escaped(s); *p; p++) {
        if (strchr("\\`*_[]<>|&!~$@#", *p))
            fputc('\\', out);
        fputc(*p, out);
    }
}

static const char *cell(outcome oc, fc_verdict_status status)
{
    switch (oc) {
    case OUTCOME_NO_CODE: return "no code";
    case OUTCOME_OK: return "✅ ok";
    case OUTCOME_PARTIAL: return "⚠️ partial";
    case OUTCOME_ACCEPTED: return status == FC_VERDICT_NONE ? "☑️ accepted (none)" : "☑️ accepted (partial)";
    case OUTCOME_FAIL: return status == FC_VERDICT_NONE ? "❌ none" : "❌ partial";
    }
    return "";
}

static void markdown_object(renderer *r, const fc_object *o, const fc_judgement *j)
{
    markdown_state *s = r->state;
    const config *cfg = r->cfg;
    if (quiet_hides(cfg, o, j))
        return;
    FILE *out = r->out;
    s->rows++;
    fputs("| ", out);
    put_md(out, quoted(o->label)); /* a name quoted as the text output quotes it: a TAB and a
                                      literal "\t" were one name (rt8 finding 8) */
    if (o->error)
        fputs(" (❌ could not be decoded)", out);
    /* What was not seen or judged: ❌ with --strict, which fails it, else ⚠️ as for partial. */
    unsigned u = fc_object_unseen(o, j);
    if (u)
        fprintf(out, " (%s not all %s)", cfg->judge.strict ? "❌" : "⚠️", unseen_what(u));
    if (cfg->coverage) {
        fputs(" | ", out);
        char *groups = NULL;
        size_t len = 0;
        FILE *line = memstream_open(&groups, &len);
        bool any = line && j && write_coverage(line, cfg, j);
        if (line && !memstream_close(line, &groups))
            any = false; /* noted (oom.h): the run fails for the cell */
        if (any)
            put_md(out, groups); /* its sm_ as the heading writes it */
        else
            fputs("no code", out);
        free(groups);
    } else {
        for (size_t t = 0; t < cfg->judge.n_targets; t++)
            fprintf(out, " | %s", j ? cell(target_outcome(cfg, j, t), fc_judgement_verdict(j, t)->status) : "not judged");
    }
    fputs(" |\n", out);
    if (o->error) {
        fputs("- ", s->notes);
        put_md(s->notes, o->error);
        fputc('\n', s->notes);
    }
    for (unsigned bit = 1; bit <= UNSEEN_LAST; bit <<= 1) {
        char said[256];
        if (!(u & bit))
            continue;
        fputs("- **", s->notes);
        put_md(s->notes, quoted(o->label));
        fputs("**: ", s->notes);
        put_md(s->notes, unseen_sentence(o, bit, said, sizeof said));
        fputs(cfg->judge.strict ? "; --strict fails it\n" : " (--strict fails it)\n", s->notes);
    }
    char *platforms = platforms_sentence(o);
    if (platforms) {
        fputs("- **", s->notes);
        put_md(s->notes, quoted(o->label));
        fputs("**: ", s->notes);
        put_md(s->notes, platforms);
        fputc('\n', s->notes);
        free(platforms);
    }
    /* --gpu all: the coverage column says it, but for the rules that accept */
    for (size_t t = 0; j && t < cfg->judge.n_targets; t++) {
        outcome oc = target_outcome(cfg, j, t);
        if (oc == OUTCOME_OK || oc == OUTCOME_NO_CODE || (cfg->coverage && oc != OUTCOME_ACCEPTED))
            continue;
        char label[300];
        target_label(&cfg->judge.targets[t], label, sizeof label);
        char *sentence = verdict_sentence(cfg, o, j, t);
        fputs("- **", s->notes);
        put_md(s->notes, quoted(o->label));
        fputs("** on ", s->notes);
        put_md(s->notes, label);
        fputs(": ", s->notes);
        put_md(s->notes, sentence ? sentence : fc_verdict_status_name(fc_judgement_verdict(j, t)->status));
        const accept_rule *a = cfg->accepted[t];
        if (a) {
            char where[64];
            snprintf(where, sizeof where, ":%u", a->line);
            fputs(" — accepted (", s->notes);
            put_md(s->notes, cfg->accept->path);
            put_md(s->notes, where);
            fputs("): ", s->notes);
            put_md(s->notes, a->reason);
        }
        fputc('\n', s->notes);
        free(sentence);
    }
    char *arch = j && (fc_judgement_problems(j, NULL) & FC_PROBLEM_ARCH_LIST) ? arch_check_sentence(cfg, j) : NULL;
    if (arch) {
        fputs("- **", s->notes);
        put_md(s->notes, quoted(o->label));
        fputs("**: ", s->notes);
        put_md(s->notes, arch);
        fputc('\n', s->notes);
    }
    free(arch);
}

/* A row whose every cell says WHAT after MARK: an input, or some of its images, not read (❌);
 * an input that may have been cut short (⚠️). */
static void input_row(renderer *r, const char *name, const char *mark, const char *what)
{
    markdown_state *s = r->state;
    s->rows++;
    size_t columns = r->cfg->coverage ? 1 : r->cfg->judge.n_targets;
    fputs("| ", r->out);
    put_md(r->out, quoted(name));
    if (!columns) /* no target: the name's cell says it */
        fprintf(r->out, " (%s %s)", mark, what);
    for (size_t t = 0; t < columns; t++)
        fprintf(r->out, " | %s %s", mark, what);
    fputs(" |\n", r->out);
}

static void markdown_error(renderer *r, const fc_error *e)
{
    markdown_state *s = r->state;
    input_row(r, e->path ? e->path : "(input)", "❌", "not read");
    fputs("- ", s->errors);
    put_md(s->errors, e->message);
    fputc('\n', s->errors);
}

/* A tar that may have been cut short (--strict makes it an input not read, markdown_error). */
static void markdown_warning(renderer *r, const fc_error *w)
{
    markdown_state *s = r->state;
    input_row(r, w->path ? w->path : "(input)", "⚠️", "may be incomplete");
    fputs("- ", s->warnings);
    put_md(s->warnings, w->message);
    fputs(" (--strict fails it)\n", s->warnings);
}

static void markdown_images_unread(renderer *r, const fc_object *o)
{
    markdown_state *s = r->state;
    input_row(r, o->label, "❌", "images not read");
    fputs("- ", s->errors);
    put_md(s->errors, o->label);
    fputs(": some of its images could not be read (standard error names them)\n", s->errors);
}

static void markdown_begin(renderer *r, const char *path)
{
    (void)r;
    (void)path;
}

static void section(FILE *out, const char *title, FILE *f, char **buf, size_t *len)
{
    if (memstream_close(f, buf) && *len) { /* else noted (oom.h) */
        fprintf(out, "\n### %s\n\n", title);
        fwrite(*buf, 1, *len, out);
    }
    free(*buf);
}

static void markdown_finish(renderer *r)
{
    markdown_state *s = r->state;
    const config *cfg = r->cfg;
    FILE *out = r->out;
    if (!s->rows)
        fputs(cfg->quiet ? "| (no file with problems) |\n" : "| (no file) |\n", out);
    section(out, "Problems", s->notes, &s->notes_buf, &s->notes_len);
    section(out, "Inputs that could not be read", s->errors, &s->errors_buf, &s->errors_len);
    section(out, "Inputs that may be incomplete", s->warnings, &s->warnings_buf, &s->warnings_len);
    char said[128];
    bool skipped = false;
    for (int kind = FC_SKIP_SYMLINKED_DIRECTORY; kind <= FC_SKIP_PACKAGE; kind++) {
        if (!skipped_sentence(cfg, (fc_skip_kind)kind, said, sizeof said))
            continue;
        if (!skipped)
            fputs("\n### Not searched\n\n", out);
        skipped = true;
        fputs("- ", out);
        put_md(out, said);
        fputc('\n', out);
    }
    bool stale = false;
    for (size_t i = 0; cfg->accept && i < cfg->accept->n; i++) {
        const accept_rule *a = &cfg->accept->rules[i];
        if (!rule_stale(cfg, a))
            continue;
        if (!stale)
            fputs("\n### Stale exceptions (remove them)\n\n", out);
        stale = true;
        char where[64];
        snprintf(where, sizeof where, ":%u", a->line);
        fputs("- ", out);
        put_md(out, cfg->accept->path);
        put_md(out, where);
        fputs(": ", out);
        put_md(out, a->pattern);
        fputc(' ', out);
        put_md(out, a->target);
        char status[32];
        fprintf(out, " %s: no such verdict to accept\n", accept_status_text(a, status, sizeof status));
    }
    free(s);
    r->state = NULL;
}

renderer *render_markdown_new(FILE *out, const config *cfg)
{
    renderer *r = calloc(1, sizeof *r);
    markdown_state *s = calloc(1, sizeof *s);
    if (!r || !s || !(s->notes = memstream_open(&s->notes_buf, &s->notes_len)) ||
        !(s->errors = memstream_open(&s->errors_buf, &s->errors_len)) ||
        !(s->warnings = memstream_open(&s->warnings_buf, &s->warnings_len))) {
        if (s && s->notes)
            fclose(s->notes);
        if (s && s->errors)
            fclose(s->errors);
        free(s ? s->notes_buf : NULL);
        free(s ? s->errors_buf : NULL);
        free(r);
        free(s);
        return NULL;
    }
    r->begin_input = markdown_begin;
    r->object = markdown_object;
    r->error = markdown_error;
    r->warning = markdown_warning;
    r->images_unread = markdown_images_unread;
    r->finish = markdown_finish;
    r->out = out;
    r->cfg = cfg;
    r->state = s;
    /* The heading, what was judged, and the table's head. */
    fputs("## fatcheck\n\n", out);
    if (cfg->detect_unjudged[0]) {
        put_md(out, cfg->detect_unjudged);
        fputs(cfg->judge.strict ? "; --strict fails it\n\n" : " (--strict fails it)\n\n", out);
    }
    if (!cfg->judge.n_targets) {
        fputs("Not judging any GPU: ", out);
        put_md(out, cfg->no_target_reason);
        fputs("\n\n| file |\n|:--|\n", out);
        return r;
    }
    fputs("Judged with a ", out);
    print_driver(out, cfg);
    fputs(".\n\n", out);
    if (cfg->coverage) {
        fprintf(out, "Judged for every architecture fatcheck knows, sm\\_%u to sm\\_%u (\\-\\-gpu all).\n\n",
                cfg->judge.targets[0].cc, cfg->judge.targets[cfg->judge.n_targets - 1].cc);
        fputs("| file | coverage |\n|:--|:--|\n", out);
        return r;
    }
    fputs("| file |", out);
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        char label[300];
        target_label(&cfg->judge.targets[t], label, sizeof label);
        fputc(' ', out);
        put_md(out, label);
        fputs(" |", out);
    }
    fputs("\n|:--|", out);
    for (size_t t = 0; t < cfg->judge.n_targets; t++)
        fputs(":-:|", out);
    fputc('\n', out);
    return r;
}
