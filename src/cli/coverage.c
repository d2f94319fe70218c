/* coverage.c - --gpu all: which architectures can run a file, and how, in one line: the
 * targets grouped by the way their verdict loads the file, runs of neighbours as ranges. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The groups, in the order the line gives them. */
typedef enum group {
    G_NATIVE,     /* every module loads native SASS */
    G_COMPATIBLE, /* some through the SASS of an older minor, none only through PTX */
    G_JIT,        /* some only through PTX JIT */
    G_LINKS,      /* link inputs only, and a device linker finds an image of each */
    G_ACCEPTED,   /* partial or none, accepted by an --accept rule */
    G_PARTIAL,
    G_NONE,
    G_COUNT,
    G_SKIP = G_COUNT, /* nothing to load or link */
} group;

static const char *const group_names[G_COUNT] = {"native", "compatible", "JIT only", "links", "accepted",
                                                 "partial", "none"};

static group group_of(const config *cfg, const fc_judgement *j, size_t t)
{
    const fc_verdict *v = fc_judgement_verdict(j, t);
    switch (target_outcome(cfg, j, t)) {
    case OUTCOME_NO_CODE:
        return G_SKIP;
    case OUTCOME_ACCEPTED:
        return G_ACCEPTED;
    case OUTCOME_PARTIAL:
    case OUTCOME_FAIL:
        return v->status == FC_VERDICT_NONE ? G_NONE : G_PARTIAL;
    case OUTCOME_OK:
        break;
    }
    if (!v->modules)
        return G_LINKS;
    return v->jit || v->runtime_linked ? G_JIT : v->compatible ? G_COMPATIBLE : G_NATIVE;
}

bool write_coverage(FILE *out, const config *cfg, const fc_judgement *j)
{
    size_t n = cfg->judge.n_targets;
    group g[FC_MAX_TARGETS];
    bool any = false;
    for (size_t t = 0; t < n; t++)
        any |= (g[t] = group_of(cfg, j, t)) != G_SKIP;
    if (!any)
        return false;
    const char *sep = "";
    for (int k = 0; k < G_COUNT; k++) {
        bool named = false;
        for (size_t t = 0; t < n; t++) {
            if (g[t] != (group)k)
                continue;
            size_t end = t; /* the run of neighbours in the same group: first-last from three on */
            while (end + 1 < n && g[end + 1] == (group)k)
                end++;
            if (!named)
                fprintf(out, "%s%s", sep, group_names[k]);
            named = true;
            if (end - t >= 2) {
                fprintf(out, " sm_%u-sm_%u", cfg->judge.targets[t].cc, cfg->judge.targets[end].cc);
                t = end;
            } else {
                fprintf(out, " sm_%u", cfg->judge.targets[t].cc);
            }
        }
        if (named)
            sep = "; ";
    }
    return true;
}

void print_coverage(FILE *out, const config *cfg, const fc_judgement *j)
{
    char *line = NULL;
    size_t len = 0;
    FILE *s = memstream_open(&line, &len);
    if (!s)
        return;
    fputs("  coverage: ", s);
    bool any = write_coverage(s, cfg, j);
    fputc('\n', s);
    if (memstream_close(s, &line) && any)
        wrap_print(out, line);
    free(line);
    /* Which rule accepted what, once per rule. */
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        const accept_rule *a = cfg->accepted[t];
        bool first = true;
        for (size_t u = 0; u < t && first; u++)
            first = cfg->accepted[u] != a;
        if (a && first)
            fprintf(out, "    accepted (%s:%u): %s\n", quoted(cfg->accept->path), a->line, escaped(a->reason));
    }
}
