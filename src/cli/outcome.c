/* outcome.c - what a verdict means for a check (fails it, is said, passes, or is accepted by an
 * --accept rule): one answer for every output format and for the exit status. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The library's rule for a load problem (fc_judgement_problems), for one target. */
static bool fails(const config *cfg, fc_verdict_status s)
{
    return s == FC_VERDICT_NONE || (cfg->judge.strict && s == FC_VERDICT_PARTIAL);
}

outcome target_outcome(const config *cfg, const fc_judgement *j, size_t t)
{
    fc_verdict_status s = fc_judgement_verdict(j, t)->status;
    if (s == FC_VERDICT_NO_CODE)
        return OUTCOME_NO_CODE;
    if (s == FC_VERDICT_OK)
        return OUTCOME_OK;
    if (cfg->accepted[t])
        return OUTCOME_ACCEPTED;
    return fails(cfg, s) ? OUTCOME_FAIL : OUTCOME_PARTIAL;
}

unsigned object_problems(const config *cfg, const fc_object *obj, const fc_judgement *j)
{
    unsigned p = fc_judgement_problems(j, obj);
    if (!(p & FC_PROBLEM_LOAD) || !cfg->accept)
        return p;
    for (size_t t = 0; t < cfg->judge.n_targets; t++)
        if (!cfg->accepted[t] && fails(cfg, fc_judgement_verdict(j, t)->status))
            return p;
    return p & ~(unsigned)FC_PROBLEM_LOAD;
}

const char *unseen_sentence(const fc_object *obj, unsigned bit, char *buf, size_t size)
{
    char n[32];
    switch (bit) {
    case FC_UNSEEN_PARTS:
        snprintf(buf, size, "no CUDA code in the parts searched, %s data section%s searched only in part "
                            "(--embedded searches them whole)",
                 fmt_count(obj->sections_searched_in_part, n, sizeof n), obj->sections_searched_in_part == 1 ? "" : "s");
        break;
    case FC_UNSEEN_APPENDED:
        snprintf(buf, size, "%s bytes appended after the %s image were not read",
                 fmt_count(obj->appended_size, n, sizeof n), obj->format == FC_FORMAT_PE ? "PE" : "ELF");
        break;
    case FC_UNSEEN_RUNTIME:
        snprintf(buf, size, "whether the targets' driver starts its CUDA runtime is not judged");
        break;
    default:
        snprintf(buf, size, "whether the NVIDIA Container Toolkit starts its container depends on what is not known");
        break;
    }
    return buf;
}

const char *unseen_name(unsigned bit)
{
    switch (bit) {
    case FC_UNSEEN_PARTS: return "parts searched";
    case FC_UNSEEN_APPENDED: return "appended bytes";
    case FC_UNSEEN_RUNTIME: return "runtime start";
    default: return "container start";
    }
}

const char *unseen_what(unsigned u)
{
    bool seen = u & (FC_UNSEEN_PARTS | FC_UNSEEN_APPENDED), judged = u & (FC_UNSEEN_RUNTIME | FC_UNSEEN_CONTAINER);
    return seen && judged ? "seen or judged" : seen ? "seen" : "judged";
}

void say_unseen(FILE *err, const fc_object *obj, const fc_judgement *j)
{
    unsigned u = fc_object_unseen(obj, j);
    char said[256];
    for (unsigned bit = 1; bit <= UNSEEN_LAST; bit <<= 1)
        if (u & bit)
            fprintf(err, "fatcheck: %s: %s; --strict fails it\n", quoted(obj->label),
                    unseen_sentence(obj, bit, said, sizeof said));
}

bool quiet_hides(const config *cfg, const fc_object *obj, const fc_judgement *j)
{
    return cfg->quiet && !object_problems(cfg, obj, j) && !(j && cfg->torch_ext && torch_ext_stale(cfg) == 1) &&
           !fc_object_unseen(obj, j);
}

void accept_object(config *cfg, const fc_object *obj, const fc_judgement *j)
{
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        const fc_verdict *v = j ? fc_judgement_verdict(j, t) : NULL;
        /* Damage is never a known exception: registered code that could not be decoded is
         * not accepted, whatever the rules say (the file is an input error, exit 3, too). Nor
         * is a driver that cannot start it: a rule for a file's images accepted the runtime or
         * the container failing on a new driver too (review of 2026-12-04, R1). */
        /* What fails, as the verdict counts it (verdict.c's finish_verdict): the modules and
         * link inputs that are not usable, a module the runtime links loading (it was counted
         * as failing, so "1 of 2 modules load; 1 cannot" was no partial:1). Modules that load an
         * image lacking some kernel, under --kernels, fail those launches: counted, or a
         * partial:N rule accepted any number of them (rv44 F3). */
        size_t failing = v ? v->modules + v->link_inputs -
                                 (v->native + v->compatible + v->jit + v->runtime_linked + v->linkable) +
                                 v->modules_lacking_kernels
                           : 0;
        cfg->accepted[t] = v && !v->undecoded ? accept_match(cfg->accept, obj->label, cfg->judge.targets[t].cc,
                                                             v->status, failing, fc_verdict_driver_fails(v))
                                              : NULL;
    }
}

size_t report_stale_rules(FILE *err, const config *cfg)
{
    size_t stale = 0;
    for (size_t i = 0; cfg->accept && i < cfg->accept->n; i++) {
        const accept_rule *a = &cfg->accept->rules[i];
        if (!rule_stale(cfg, a))
            continue;
        stale++;
        fprintf(err, "fatcheck: %s:%u: stale exception: no %s verdict of %s on %s to accept (remove the rule)\n",
                quoted(cfg->accept->path), a->line, a->status == FC_VERDICT_NONE ? "none or partial" : "partial",
                quoted(a->pattern), a->cc ? escaped(a->target) : "any target");
    }
    return stale;
}

char *verdict_sentence(const config *cfg, const fc_object *obj, const fc_judgement *j, size_t t)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = memstream_open(&s, &len);
    if (!f)
        return NULL;
    bool said = print_verdict_sentence(f, cfg, obj, j, t);
    if (!memstream_close(f, &s) || !said) {
        free(s);
        return NULL;
    }
    return s;
}

char *arch_check_sentence(const config *cfg, const fc_judgement *j)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = memstream_open(&s, &len);
    if (!f)
        return NULL;
    bool said = print_arch_check(f, cfg, j);
    if (!memstream_close(f, &s) || !said) {
        free(s);
        return NULL;
    }
    if (len && s[len - 1] == '\n')
        s[--len] = '\0';
    memmove(s, s + 2, len - 1); /* the indent: "  arch list ..." */
    return s;
}
