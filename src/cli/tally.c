/* tally.c - a run's outcome, and its exit status. */
#include "tally.h"
#include "cli.h"

void tally_skip(void *ctx, fc_skip_kind kind, const char *path)
{
    config *cfg = ctx;
    (void)path;
    if (kind == FC_SKIP_SYMLINKED_DIRECTORY)
        cfg->skipped_links++;
    else
        cfg->skipped_packages++;
}

/* A package a walk did not open was not seen: a release gate run as `fatcheck --strict dist/`
 * on a folder of wheels passed them all unread. A symlinked directory not followed is not
 * failed: its files are mostly walked under their own names, or lie outside the tree. */
bool skipped_fails(const config *cfg, fc_skip_kind kind)
{
    return cfg->judge.strict && kind == FC_SKIP_PACKAGE && cfg->skipped_packages;
}

void tally_skipped(tally *t, const config *cfg)
{
    t->unseen += skipped_fails(cfg, FC_SKIP_PACKAGE);
}

void tally_object(tally *t, unsigned problems)
{
    t->input_errors += (problems & FC_PROBLEM_INPUT) != 0;
    t->load_failures += (problems & FC_PROBLEM_LOAD) != 0;
    t->arch_mismatches += (problems & FC_PROBLEM_ARCH_LIST) != 0;
    t->unseen += (problems & FC_PROBLEM_UNSEEN) != 0;
}

int tally_exit_status(const tally *t, bool no_targets)
{
    if (t->internal)
        return EXIT_INTERNAL;
    if (no_targets)
        return EXIT_NO_TARGETS;
    if (t->input_errors || t->unseen) /* --strict: what was not seen is not read */
        return EXIT_INPUT;
    if (t->load_failures)
        return EXIT_LOAD_RISK;
    return t->arch_mismatches ? EXIT_ARCH_LIST : EXIT_OK;
}
