/* advice.c - what was judged, and what to build with: the summary's header and closing
 * advice (json_report.c writes their JSON counterparts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void print_driver(FILE *out, const config *cfg)
{
    bool assumed = false;
    int shown = -1;
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        int d = cfg->judge.targets[t].driver_cuda;
        if (!d)
            assumed = true;
        else if (d != shown) {
            fprintf(out, "%sdriver for CUDA %d.%d", shown < 0 ? "" : ", ", d / 1000, d % 1000 / 10);
            shown = d;
        }
    }
    if (assumed)
        fprintf(out, "%sdriver assumed new enough for any PTX (name one with --driver)", shown < 0 ? "" : "; ");
}

static void print_notes(FILE *out, const config *cfg)
{
    if (cfg->detect_note[0])
        fprintf(out, "note: %s\n", escaped(cfg->detect_note));
    if (cfg->judge.jit.force_ptx_jit)
        fputs("note: CUDA_FORCE_PTX_JIT is set: the driver ignores cubins and compiles PTX\n", out);
    if (cfg->judge.jit.disable_ptx_jit)
        fputs("note: CUDA_DISABLE_PTX_JIT is set: the driver never compiles PTX\n", out);
}

void print_targets_header(FILE *out, const config *cfg)
{
    if (!cfg || !cfg->judge.n_targets)
        return;
    if (cfg->coverage) {
        /* --gpu all: the architectures, not a line each */
        const fc_judge_options *jo = &cfg->judge;
        char *line = NULL;
        size_t len = 0;
        FILE *s = memstream_open(&line, &len);
        if (!s)
            return;
        fprintf(s, "judging for: %zu architectures, sm_%u to sm_%u (--gpu all); ", jo->n_targets, jo->targets[0].cc,
                jo->targets[jo->n_targets - 1].cc);
        print_driver(s, cfg);
        fputc('\n', s);
        if (memstream_close(s, &line))
            wrap_print(out, line);
        free(line);
        print_notes(out, cfg);
        return;
    }
    /* One line when it fits in 80 columns, else a target a line. */
    char labels[FC_MAX_TARGETS][300], *driver = NULL;
    size_t total = strlen("judging for: ; "), driver_len = 0;
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        target_label(&cfg->judge.targets[t], labels[t], sizeof labels[t]);
        total += strlen(labels[t]) + 2;
    }
    /* Without its driver line the header would not say what was judged: left out whole, and
     * the run fails (oom.h). Before, a failed close printed "driver (null)". */
    FILE *d = memstream_open(&driver, &driver_len);
    if (!d)
        return;
    print_driver(d, cfg);
    if (!memstream_close(d, &driver))
        return;
    total += driver_len;
    if (total <= 80) {
        fputs("judging for: ", out);
        for (size_t t = 0; t < cfg->judge.n_targets; t++)
            fprintf(out, "%s%s", t ? ", " : "", labels[t]);
        fprintf(out, "; %s\n", driver);
    } else {
        fputs("judging for:\n", out);
        for (size_t t = 0; t < cfg->judge.n_targets; t++)
            fprintf(out, "  %s\n", labels[t]);
        fprintf(out, "  %s\n", driver);
    }
    free(driver);
    print_notes(out, cfg);
}

bool advice_needed(const config *cfg, const fc_judgement *j)
{
    /* --gpu all asks which GPUs run a file, not how to build for every one */
    if (!cfg || !j || cfg->coverage)
        return false;
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        const fc_verdict *v = fc_judgement_verdict(j, t);
        if (v->gpu_needs_cuda || v->gpu_last_cuda) /* a driver older or newer than the GPU: no build target helps */
            continue;
        if (v->runtime_fails && !v->modules) /* no kernel of its own: only a driver helps */
            continue;
        size_t failing = v->modules - (v->native + v->compatible + v->jit + v->runtime_linked);
        /* Damage, and images this driver cannot decompress, are no matter of build targets. */
        size_t not_targets = v->undecoded + v->unsupported_compression + v->toolkit_too_new + v->damaged_cubins;
        bool only_damage = not_targets && failing == not_targets && v->link_inputs == v->linkable &&
                           !v->runtime_fails;
        /* Kernels left out of some architectures' images by the source: no build target helps. */
        if (!failing && v->link_inputs == v->linkable && v->modules_lacking_kernels && !v->runtime_fails)
            continue;
        outcome o = target_outcome(cfg, j, t);
        if ((o == OUTCOME_FAIL || o == OUTCOME_PARTIAL) && !only_damage)
            return true;
    }
    return fc_judgement_problems(j, NULL) & FC_PROBLEM_ARCH_LIST;
}

void print_advice(FILE *out, const config *cfg)
{
    if (!cfg || !cfg->judge.n_targets)
        return;
    unsigned ccs[FC_MAX_TARGETS];
    size_t n = fc_covering_ccs(ccs, FC_MAX_TARGETS, NULL, cfg->judge.targets, cfg->judge.n_targets);
    fc_build_flags native, ptx;
    fc_build_flags_format(&native, ccs, n, false);
    fc_build_flags_format(&ptx, ccs, n, true);
    fprintf(out, "to build native code for these targets: TORCH_CUDA_ARCH_LIST=\"%s\"\n", native.torch);
    fprintf(out, "  CMake: CUDA_ARCHITECTURES=\"%s\"\n  nvcc:  %s\n", native.cmake, native.nvcc);
    fprintf(out, "  with PTX for newer GPUs: TORCH_CUDA_ARCH_LIST=\"%s\"\n", ptx.torch);
    fprintf(out, "                           CUDA_ARCHITECTURES=\"%s\"\n", ptx.cmake);
    /* Flags nobody can use with today's toolkit say so. */
    unsigned oldest = 0;
    for (size_t t = 0; t < cfg->judge.n_targets; t++)
        if (!oldest || cfg->judge.targets[t].cc < oldest)
            oldest = cfg->judge.targets[t].cc;
    int last = fc_last_cuda_building(oldest);
    if (last)
        fprintf(out, "  (CUDA 13 builds sm_%u and newer: sm_%u needs CUDA %d.x or older)\n", fc_oldest_cc_built_by(13),
                oldest, last);
}
