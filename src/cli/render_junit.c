/* render_junit.c - --format=junit: a JUnit XML report, as GitLab, Jenkins and Buildkite read
 * test results (docs/ci.md). A test case per file and target: a failure where the verdict
 * fails the check (none; partial with --strict), skipped where an --accept rule accepts it;
 * an error per input that could not be read; a failure per file that does not hold what
 * --arch-list builds; a skipped case per stale --accept rule; a case per thing not seen or
 * judged of a file, and per tar that may have been cut short: skipped, or with --strict, which
 * fails them, an error. Written when the run ends, when the counts the suite opens with are
 * known. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_view.h"

typedef struct junit_state {
    FILE *cases; /* the test cases, written at the end after the counts */
    char *buf;
    size_t len;
    size_t tests, failures, errors, skipped;
} junit_state;

/* S escaped as text (escape.h: nothing unprintable, every byte valid UTF-8), then for XML.
 * XML 1.0 allows every character that leaves besides U+FFFE and U+FFFF (its Char
 * production): those are written as the octal escapes text escaping uses for bytes. */
static void put_xml(FILE *out, const char *s)
{
    for (const char *p = escaped(s); *p; p++) {
        if ((unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbf &&
            ((unsigned char)p[2] == 0xbe || (unsigned char)p[2] == 0xbf)) {
            fprintf(out, "\\357\\277\\%03o", (unsigned char)p[2]);
            p += 2;
            continue;
        }
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*p, out); break;
        }
    }
}

/* <testcase classname="CLASS" name="NAME"> with an optional child: ELEMENT ("failure",
 * "error", "skipped") with message MESSAGE and, when TEXT, that as its text. */
static void test_case(junit_state *s, const char *class, const char *name, const char *element, const char *type,
                      const char *message, const char *text)
{
    FILE *out = s->cases;
    s->tests++;
    fputs("    <testcase classname=\"", out);
    put_xml(out, quoted(class)); /* as the text output quotes names: a TAB and a literal "\t"
                                    were one test case (review of 2026-12-05, rt8 finding 8) */
    fputs("\" name=\"", out);
    put_xml(out, name);
    if (!element) {
        fputs("\"/>\n", out);
        return;
    }
    if (strcmp(element, "failure") == 0)
        s->failures++;
    else if (strcmp(element, "error") == 0)
        s->errors++;
    else
        s->skipped++;
    fprintf(out, "\">\n      <%s", element);
    if (type)
        fprintf(out, " type=\"%s\"", type);
    fputs(" message=\"", out);
    put_xml(out, message);
    if (text) {
        fputs("\">", out);
        put_xml(out, text);
        fprintf(out, "</%s>\n", element);
    } else {
        fputs("\"/>\n", out);
    }
    fputs("    </testcase>\n", out);
}

static void junit_object(renderer *r, const fc_object *o, const fc_judgement *j)
{
    junit_state *s = r->state;
    const config *cfg = r->cfg;
    if (o->error)
        test_case(s, o->label, "read", "error", "input", o->error, NULL);
    bool any = false;
    for (size_t t = 0; j && t < cfg->judge.n_targets; t++) {
        outcome oc = target_outcome(cfg, j, t);
        if (oc == OUTCOME_NO_CODE)
            continue;
        any = true;
        char label[300];
        target_label(&cfg->judge.targets[t], label, sizeof label);
        char *sentence = verdict_sentence(cfg, o, j, t), *note = NULL;
        const char *status = fc_verdict_status_name(fc_judgement_verdict(j, t)->status);
        const char *said = sentence ? sentence : status;
        const accept_rule *a = cfg->accepted[t];
        if (oc == OUTCOME_FAIL) {
            test_case(s, o->label, label, "failure", status, said, NULL);
        } else if (oc == OUTCOME_ACCEPTED && (note = str_printf("accepted (%s:%u): %s", cfg->accept->path, a->line,
                                                                a->reason))) {
            test_case(s, o->label, label, "skipped", NULL, note, said);
        } else {
            test_case(s, o->label, label, NULL, NULL, NULL, NULL);
        }
        free(note);
        free(sentence);
    }
    /* What was not seen or judged: not tested, so skipped; --strict fails it as an input not
     * read (exit 3), so an error there. */
    unsigned u = fc_object_unseen(o, j);
    for (unsigned bit = 1; bit <= UNSEEN_LAST; bit <<= 1) {
        char said[256], *message = NULL;
        if (!(u & bit) || !(message = str_printf("%s%s", unseen_sentence(o, bit, said, sizeof said),
                                                 cfg->judge.strict ? "; --strict fails it" : " (--strict fails it)")))
            continue;
        any = true;
        test_case(s, o->label, unseen_name(bit), cfg->judge.strict ? "error" : "skipped",
                  cfg->judge.strict ? "unseen" : NULL, message, NULL);
        free(message);
    }
    char *platforms = platforms_sentence(o);
    if (platforms) {
        any = true;
        test_case(s, o->label, "other platforms", "skipped", NULL, platforms, NULL);
        free(platforms);
    }
    char *arch = j ? arch_check_sentence(cfg, j) : NULL;
    if (arch) {
        any = true;
        bool fails = fc_judgement_problems(j, NULL) & FC_PROBLEM_ARCH_LIST;
        test_case(s, o->label, "arch list", fails ? "failure" : NULL, "arch-list", arch, NULL);
    }
    free(arch);
    if (!any && !o->error) /* nothing judged: the file was read, and held nothing to load (an
                              image's own record: its files follow) */
        test_case(s, o->label, o->format == FC_FORMAT_IMAGE ? "image" : o->n_containers ? "read" : "no CUDA code",
                  NULL, NULL, NULL, NULL);
}

static void junit_error(renderer *r, const fc_error *e)
{
    test_case(r->state, e->path ? e->path : "(input)", "read", "error", "input", e->message, NULL);
}

/* A tar that may have been cut short: its "read" case, skipped (--strict makes it an error, through
 * junit_error). */
static void junit_warning(renderer *r, const fc_error *w)
{
    char *message = str_printf("%s (--strict fails it)", w->message);
    if (!message)
        return;
    test_case(r->state, w->path ? w->path : "(input)", "read", "skipped", NULL, message, NULL);
    free(message);
}

static void junit_images_unread(renderer *r, const fc_object *o)
{
    test_case(r->state, o->label, "images", "error", "input",
              "some of its images could not be read (standard error names them)", NULL);
}

static void junit_begin(renderer *r, const char *path)
{
    (void)r;
    (void)path;
}

static void junit_finish(renderer *r)
{
    junit_state *s = r->state;
    const config *cfg = r->cfg;
    for (size_t i = 0; cfg->accept && i < cfg->accept->n; i++) {
        const accept_rule *a = &cfg->accept->rules[i];
        char *class = NULL, *name = NULL, *message = NULL, status[32];
        /* (a rule that matched only verdicts it may not accept was "its target is not judged":
         * review of 2026-12-08, rv44 F6) */
        if ((class = str_printf("--accept %s", cfg->accept->path)) &&
            (name = str_printf("line %u: %s %s %s", a->line, a->pattern, a->target,
                               accept_status_text(a, status, sizeof status))) &&
            (a->used || (message = str_printf(rule_stale(cfg, a) ? "stale: no verdict to accept; remove the rule"
                                              : a->withheld
                                                  ? "matched only verdicts it may not accept (the driver fails them, "
                                                    "or more modules fail than partial:N allows)"
                                                  : "its target is not judged in this run"))))
            test_case(s, class, name, a->used ? NULL : "skipped", NULL, message, NULL);
        free(class);
        free(name);
        free(message);
    }
    if (cfg->detect_unjudged[0])
        test_case(s, "local GPUs", "detection", cfg->judge.strict ? "error" : "skipped", cfg->judge.strict ? "unseen" : NULL,
                  cfg->detect_unjudged, NULL);
    char unopened[128];
    if (skipped_fails(cfg, FC_SKIP_PACKAGE) && skipped_sentence(cfg, FC_SKIP_PACKAGE, unopened, sizeof unopened))
        test_case(s, "walks", "packages", "error", "unseen", unopened, NULL);
    memstream_close(s->cases, &s->buf); /* when it fails, noted (oom.h), the cases are left out */
    FILE *out = r->out;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out, "<testsuites name=\"fatcheck\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
            s->tests, s->failures, s->errors, s->skipped);
    fprintf(out, "  <testsuite name=\"fatcheck\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
            s->tests, s->failures, s->errors, s->skipped);
    /* What is said of the run as a whole, a line each: no target, and what walks passed over. */
    char links[128], packages[128];
    const char *said[] = {skipped_sentence(cfg, FC_SKIP_SYMLINKED_DIRECTORY, links, sizeof links),
                          skipped_sentence(cfg, FC_SKIP_PACKAGE, packages, sizeof packages)};
    bool no_target = !cfg->judge.n_targets && cfg->no_target_reason[0];
    if (no_target || said[0] || said[1]) {
        fputs("    <system-err>", out);
        const char *sep = "";
        if (no_target) {
            fputs("not judging any GPU: ", out);
            put_xml(out, cfg->no_target_reason);
            sep = "\n";
        }
        for (size_t i = 0; i < 2; i++)
            if (said[i]) {
                fputs(sep, out);
                put_xml(out, said[i]);
                sep = "\n";
            }
        fputs("</system-err>\n", out);
    }
    if (s->buf)
        fwrite(s->buf, 1, s->len, out);
    fputs("  </testsuite>\n</testsuites>\n", out);
    free(s->buf);
    free(s);
    r->state = NULL;
}

renderer *render_junit_new(FILE *out, const config *cfg)
{
    renderer *r = calloc(1, sizeof *r);
    junit_state *s = calloc(1, sizeof *s);
    if (!r || !s || !(s->cases = memstream_open(&s->buf, &s->len))) {
        free(r);
        free(s);
        return NULL;
    }
    r->begin_input = junit_begin;
    r->object = junit_object;
    r->error = junit_error;
    r->warning = junit_warning;
    r->images_unread = junit_images_unread;
    r->finish = junit_finish;
    r->out = out;
    r->cfg = cfg;
    r->state = s;
    return r;
}
