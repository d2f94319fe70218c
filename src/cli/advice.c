/* advice.c - what was judged, and what to build with: the header, the closing advice, and
 * their JSON counterparts. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void print_driver(FILE *out, const config *cfg)
{
    bool assumed = false;
    int shown = -1;
    for (size_t t = 0; t < cfg->n_targets; t++) {
        int d = cfg->targets[t].driver_cuda;
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

void print_targets_header(FILE *out, const config *cfg)
{
    if (!cfg || !cfg->n_targets)
        return;
    /* One line when it fits in 80 columns, else a target a line. */
    char labels[MAX_TARGETS][300], *driver = NULL;
    size_t total = strlen("judging for: ; "), driver_len = 0;
    for (size_t t = 0; t < cfg->n_targets; t++) {
        target_label(&cfg->targets[t], labels[t], sizeof labels[t]);
        total += strlen(labels[t]) + 2;
    }
    FILE *d = open_memstream(&driver, &driver_len);
    if (!d)
        return;
    print_driver(d, cfg);
    fclose(d);
    total += driver_len;
    if (total <= 80) {
        fputs("judging for: ", out);
        for (size_t t = 0; t < cfg->n_targets; t++)
            fprintf(out, "%s%s", t ? ", " : "", labels[t]);
        fprintf(out, "; %s\n", driver);
    } else {
        fputs("judging for:\n", out);
        for (size_t t = 0; t < cfg->n_targets; t++)
            fprintf(out, "  %s\n", labels[t]);
        fprintf(out, "  %s\n", driver);
    }
    free(driver);
    if (cfg->detect_note[0])
        fprintf(out, "note: %s\n", escaped(cfg->detect_note));
    if (cfg->jit.force_ptx_jit)
        fputs("note: CUDA_FORCE_PTX_JIT is set: the driver ignores cubins and compiles PTX\n", out);
    if (cfg->jit.disable_ptx_jit)
        fputs("note: CUDA_DISABLE_PTX_JIT is set: the driver never compiles PTX\n", out);
}

/* What to build for the targets' compute capabilities, without PTX and with it. */
static void target_build_flags(const config *cfg, build_flags *native, build_flags *ptx)
{
    unsigned ccs[MAX_TARGETS];
    size_t n = covering_ccs(cfg, NULL, ccs, MAX_TARGETS);
    format_build_flags(ccs, n, false, native);
    format_build_flags(ccs, n, true, ptx);
}

bool advice_needed(const config *cfg, const judgement *j)
{
    if (!cfg || !j)
        return false;
    for (size_t t = 0; t < cfg->n_targets; t++)
        if (j->verdicts[t].status == VERDICT_NONE || j->verdicts[t].status == VERDICT_PARTIAL)
            return true;
    return cfg->have_arch_list && j->registered && !j->arch_list_ok;
}

void print_advice(FILE *out, const config *cfg)
{
    if (!cfg || !cfg->n_targets)
        return;
    build_flags native, ptx;
    target_build_flags(cfg, &native, &ptx);
    fprintf(out, "to build native code for these targets: TORCH_CUDA_ARCH_LIST=\"%s\"\n", native.torch);
    fprintf(out, "  CMake: CUDA_ARCHITECTURES=\"%s\"\n  nvcc:  %s\n", native.cmake, native.nvcc);
    fprintf(out, "  with PTX for newer GPUs: TORCH_CUDA_ARCH_LIST=\"%s\"\n", ptx.torch);
    fprintf(out, "                           CUDA_ARCHITECTURES=\"%s\"\n", ptx.cmake);
    /* Flags nobody can use with today's toolkit say so. */
    unsigned oldest = 0;
    for (size_t t = 0; t < cfg->n_targets; t++)
        if (!oldest || cfg->targets[t].cc < oldest)
            oldest = cfg->targets[t].cc;
    int last = last_major_building(oldest);
    if (last)
        fprintf(out, "  (CUDA 13 builds sm_%u and newer: sm_%u needs CUDA %d.x or older)\n", first_cc_built_by(13), oldest,
                last);
}

/* {"torch_cuda_arch_list":..,"cmake_cuda_architectures":..,"nvcc":.., without the closing brace. */
static void json_build_flags(FILE *out, const build_flags *f)
{
    fputs("{\"torch_cuda_arch_list\":", out);
    json_string(out, f->torch);
    fputs(",\"cmake_cuda_architectures\":", out);
    json_string(out, f->cmake);
    fputs(",\"nvcc\":", out);
    json_string(out, f->nvcc);
}

void json_targets_and_advice(FILE *out, const config *cfg)
{
    if (!cfg)
        return;
    fputs(",\n\"targets\":[", out);
    for (size_t t = 0; t < cfg->n_targets; t++) {
        const fc_target *tg = &cfg->targets[t];
        char cc[8];
        fprintf(out, "%s\n{\"target\":\"sm_%u\",\"compute_capability\":\"%s\",\"tegra\":%s", t ? "," : "", tg->cc,
                cc_text(tg->cc, cc, sizeof cc), tg->tegra ? "true" : "false");
        json_field(out, ",\"name\":", tg->name[0] ? tg->name : NULL);
        json_field(out, ",\"source\":", tg->source);
        if (tg->uuid[0])
            json_field(out, ",\"uuid\":", tg->uuid);
        if (tg->driver_cuda)
            fprintf(out, ",\"driver_cuda\":\"%d.%d\",\"driver_assumed\":false", tg->driver_cuda / 1000,
                    tg->driver_cuda % 1000 / 10);
        else
            fputs(",\"driver_cuda\":null,\"driver_assumed\":true", out);
        fputs("}", out);
    }
    fputs("]", out);
    if (!cfg->n_targets && cfg->no_target_reason[0]) {
        json_field(out, ",\n\"targets_note\":", cfg->no_target_reason);
    }
    if (cfg->detect_ran) {
        fputs(",\n\"detection\":{\"by\":", out);
        json_string(out, cfg->detected_by);
        json_field(out, ",\"note\":", cfg->detect_note[0] ? cfg->detect_note : NULL);
        json_field(out, ",\"driver_reason\":", cfg->detect_driver_reason[0] ? cfg->detect_driver_reason : NULL);
        fputs("}", out);
    }
    fprintf(out, ",\n\"jit_policy\":{\"CUDA_FORCE_PTX_JIT\":%s,\"CUDA_DISABLE_PTX_JIT\":%s}",
            cfg->jit.force_ptx_jit ? "true" : "false", cfg->jit.disable_ptx_jit ? "true" : "false");
    if (!cfg->n_targets)
        return;
    build_flags native, ptx;
    target_build_flags(cfg, &native, &ptx);
    fputs(",\n\"advice\":", out);
    json_build_flags(out, &native);
    fputs(",\"with_ptx\":", out);
    json_build_flags(out, &ptx);
    fputs("}}", out);
}
