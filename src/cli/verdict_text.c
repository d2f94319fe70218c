/* verdict_text.c - verdicts, notes and fixes in words, for the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_view.h"

void target_label(const fc_target *t, char *buf, size_t size)
{
    char cc[8];
    cc_text(t->cc, cc, sizeof cc);
    /* Names come from the driver, --gpu and inventories: escaped. */
    if (t->name[0] && strncmp(t->source, "GPU ", 4) == 0)
        snprintf(buf, size, "sm_%u (%s: %s)", t->cc, escaped(t->source), escaped(t->name));
    else
        snprintf(buf, size, "sm_%u (%s)", t->cc, escaped(t->source));
}

/* What the CUDA runtime says of a failed launch: cudaGetErrorString's words (libcudart 13.0)
 * for the cudaError_t that driver_types.h names. */
#define RT_INVALID_IMAGE "device kernel image is invalid" /* cudaErrorInvalidKernelImage (200), cudaErrorInvalidSource (300) */
#define RT_NO_IMAGE "no kernel image is available for execution on the device" /* cudaErrorNoKernelImageForDevice (209) */
#define RT_UNKNOWN "unknown error"                        /* cudaErrorUnknown (999) */

/* Rule: what every kernel launch fails with when no module loads, quoted. A module whose image
 * the driver refuses fails with what the driver answered for it: 200 and 300 for a damaged
 * image, 999 or 209 for one that does not inflate (fc_verdict.refused_images); modules that
 * fail differently give each its words, "A" or "B". */
static void print_launch_error(FILE *out, const fc_verdict *v)
{
    if (v->unsupported_ptx && !v->no_binary && !v->invalid_ptx && !v->relocatable) {
        fputs("\"the provided PTX was compiled with an unsupported toolchain.\"", out); /* 222 */
    } else if (v->refused_images == v->modules) {
        const char *sep = "";
        if (v->refused_images > v->uncompress_unknown + v->uncompress_no_binary ||
            !(v->uncompress_unknown + v->uncompress_no_binary))
            fputs("\"" RT_INVALID_IMAGE "\"", out), sep = " or ";
        if (v->uncompress_unknown)
            fprintf(out, "%s\"" RT_UNKNOWN "\"", sep), sep = " or ";
        if (v->uncompress_no_binary)
            fprintf(out, "%s\"" RT_NO_IMAGE "\"", sep);
    } else if (v->unsupported_compression + v->toolkit_too_new == v->modules) {
        fputs("\"" RT_INVALID_IMAGE "\"", out);
    } else if (v->invalid_ptx && !v->no_binary && !v->unsupported_ptx && !v->relocatable) {
        fputs("\"a PTX JIT compilation failed\"", out); /* 218 */
    } else if (v->relocatable && !v->no_binary && !v->unsupported_ptx && !v->invalid_ptx) {
        fputs("\"" RT_INVALID_IMAGE "\" or \"named symbol not found\"", out); /* 200, 500 */
    } else {
        fputs(v->undecoded == v->modules ? "\"" RT_INVALID_IMAGE "\"" : "\"" RT_NO_IMAGE "\"", out);
    }
}

static const char *driver_text(int cuda, char *buf, size_t size)
{
    snprintf(buf, size, "CUDA %d.%d", cuda / 1000, cuda % 1000 / 10);
    return buf;
}

static void print_failures(FILE *out, const fc_verdict *v, unsigned cc)
{
    const char *sep = "";
    if (v->no_binary) {
        fprintf(out, "no kernel image for sm_%u", cc);
        sep = "; ";
    }
    if (v->unsupported_ptx) {
        fprintf(out, "%sPTX newer than the driver takes", sep);
        sep = "; ";
    }
    if (v->jit_disabled) {
        fprintf(out, "%sonly PTX, and CUDA_DISABLE_PTX_JIT is set", sep);
        sep = "; ";
    }
    if (v->invalid_ptx > v->unreadable_ptx) {
        fprintf(out, "%sPTX that calls functions it does not define", sep);
        sep = "; ";
    }
    if (v->unreadable_ptx) {
        fprintf(out, "%sPTX the JIT cannot read", sep);
        sep = "; ";
    }
    if (v->relocatable) {
        fprintf(out, "%srelocatable code (-rdc) registered as a module", sep);
        sep = "; ";
    }
    if (v->unsupported_compression) {
        fprintf(out, "%simages compressed with zstd, which drivers before CUDA 12.4 cannot read", sep);
        sep = "; ";
    }
    if (v->toolkit_too_new) {
        int built = v->toolkit_too_new_cuda / 1000;
        fprintf(out, "%scubins of CUDA %d's toolchain, which drivers before CUDA %d.0 do not run", sep, built, built);
        sep = "; ";
    }
    if (v->damaged_cubins) {
        fprintf(out, "%sa cubin whose ELF header is damaged or names another GPU", sep);
        sep = "; ";
    }
    if (v->undecoded) {
        fprintf(out, "%sregistered code that could not be decoded", sep);
        sep = "; ";
    }
    if (v->link_inputs > v->linkable)
        fprintf(out, "%sno image the device linker can use for sm_%u", sep, cc);
}

/* "2 cubin, 1 PTX" for what the linker takes from the linkable link inputs. */
static void print_link_ways(FILE *out, const fc_verdict *v)
{
    static const char *const names[] = {"", "cubin", "PTX", "LTO-IR"};
    char n[32];
    const char *sep = "";
    for (int w = FC_LINK_VIA_CUBIN; w <= FC_LINK_VIA_LTOIR; w++)
        if (v->linked_via[w]) {
            fprintf(out, "%s%s %s", sep, fmt_count(v->linked_via[w], n, sizeof n), names[w]);
            sep = ", ";
        }
}

static void print_fix(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j,
                      const fc_verdict *v, const fc_target *tg, const char *indent)
{
    int major = fc_judgement_built_by(j), last = fc_last_cuda_building(tg->cc);
    char lib[64];
    bool no_code = v->status == FC_VERDICT_NONE && (v->no_binary || v->jit_disabled || v->link_inputs > v->linkable);
    if (no_code && fc_nvidia_library(lib, sizeof lib, obj)) {
        fprintf(out, "%sfix: this is NVIDIA's %s", indent, lib);
        if (major)
            fprintf(out, " (a CUDA %d build)", major);
        fprintf(out, ", with no code for sm_%u:\n", tg->cc);
        if (last && (!major || major > last))
            fprintf(out, "%s     use %s from CUDA %d.x, the last release that supports sm_%u\n", indent, lib, last,
                    tg->cc);
        else
            fprintf(out, "%s     use a release of %s that carries sm_%u code\n", indent, lib, tg->cc);
    } else if (no_code && !cfg->torch_ext) { /* torch extensions get their own fix */
        unsigned ccs[64];
        size_t n = fc_covering_ccs(ccs, 64, obj, cfg->judge.targets, cfg->judge.n_targets);
        fc_build_flags f;
        fc_build_flags_format(&f, ccs, n, false);
        if (last && major > last)
            fprintf(out, "%snote: CUDA %d, which built this, cannot build sm_%u (it starts at sm_%u):\n"
                         "%s      rebuild with CUDA %d.x, the last release that can\n",
                    indent, major, tg->cc, fc_oldest_cc_built_by(major), indent, last);
        fprintf(out, "%sfix: rebuild with TORCH_CUDA_ARCH_LIST=\"%s\"\n", indent, f.torch);
        fprintf(out, "%s     or CMake CUDA_ARCHITECTURES=\"%s\"\n", indent, f.cmake);
        fprintf(out, "%s     or nvcc %s\n", indent, f.nvcc);
    }
    if (v->unsupported_ptx) {
        const fc_ptx_need *p = fc_judgement_ptx(j);
        char d[32];
        if (p->cuda) /* (min_driver is NULL for a Windows file: verdict.c) */
            fprintf(out, "%sfix: its PTX (ISA %u.%u) needs a driver for %s or newer%s%s%s\n", indent, p->isa_major,
                    p->isa_minor, driver_text(p->cuda, d, sizeof d), p->min_driver ? " (>= " : "",
                    p->min_driver ? p->min_driver : "", p->min_driver ? ")" : "");
        else
            fprintf(out, "%sfix: its PTX (ISA %u.%u) needs a newer driver\n", indent, p->isa_major, p->isa_minor);
    }
}

/* "a driver for CUDA 13.0 or newer (>= 580.65.06)" */
static void print_driver_need(FILE *out, const fc_object *obj, int cuda)
{
    const char *drv = fc_object_is_windows(obj) ? NULL : fc_cuda_min_driver(cuda);
    char d[32];
    fprintf(out, "a driver for %s or newer", driver_text(cuda, d, sizeof d));
    if (drv)
        fprintf(out, " (>= %s)", drv);
}

void print_runtime(FILE *text, const fc_object *obj, const fc_judgement *j)
{
    const fc_runtime_need *n = fc_judgement_runtime(j);
    bool in_sections = false; /* a section named them -rdc code (elf_needs.c: either way) */
    for (size_t c = 0; c < obj->n_containers && !in_sections; c++)
        in_sections = obj->containers[c].section != NULL;
    if (obj->device_link_missing)
        fputs(in_sections ? "  device link: missing: its -rdc code stands in __nv_relfatbin alone and it\n"
                                     "    imports __cudaRegisterLinkedBinary_*: it cannot be loaded\n"
                                   : "  device link: missing: it imports __cudaRegisterLinkedBinary_*, which only the\n"
                                     "    device link step defines, and holds no output of it: it cannot be loaded\n",
              text);
    if (n->kind == FC_RUNTIME_NONE && !n->cuda)
        return;
    char *sentence = NULL; /* one sentence, wrapped to 80 columns at the end */
    size_t sentence_len = 0;
    FILE *out = memstream_open(&sentence, &sentence_len);
    if (!out)
        return;
    fputs("  runtime: ", out);
    switch (n->kind) {
    case FC_RUNTIME_SHARED:
        for (size_t i = 0; i < obj->n_needed; i++)
            if (fc_is_cuda_runtime_library(obj->needed[i])) {
                fprintf(out, "%s", obj->needed[i]);
                break;
            }
        break;
    case FC_RUNTIME_STATIC:
        if (n->built_by)
            fprintf(out, "static, CUDA %d (%s)", n->built_by / 1000, n->built_by_evidence);
        else
            fputs("static, its CUDA release not recorded in the file", out);
        break;
    case FC_RUNTIME_PROCESS:
        fputs("the loading process's (it imports __cudaRegisterFatBinary)", out);
        break;
    case FC_RUNTIME_UNKNOWN:
        fputs(fc_object_is_windows(obj) ? "not named, and linked in or not cannot be told: its import tables cannot be read"
                                        : "not named, and linked in or not cannot be told without the section table",
              out);
        break;
    case FC_RUNTIME_NONE:
        fputs("none named", out);
        break;
    }
    if (n->cuda) {
        fputs("; ", out);
        bool by_runtime = (n->kind == FC_RUNTIME_SHARED && fc_is_cuda_runtime_library(n->decided_by)) ||
                          (n->kind == FC_RUNTIME_STATIC && strncmp(n->decided_by, "its static", 10) == 0);
        if (!by_runtime)
            fprintf(out, "%s ", n->decided_by);
        fputs("needs ", out);
        print_driver_need(out, obj, n->cuda);
    }
    fputc('\n', out);
    if (memstream_close(out, &sentence))
        wrap_print(text, sentence);
    free(sentence);
}

static void print_runtime_fix(FILE *out, const fc_object *obj, const fc_judgement *j, const fc_target *tg)
{
    int need = fc_judgement_runtime(j)->cuda;
    fputs("    fix: install ", out);
    print_driver_need(out, obj, need);
    fputc('\n', out);
    if (need >= 11000 && !fc_object_is_windows(obj)) /* cuda-compat is for Linux */
        fprintf(out, "         or, on a data-center GPU, NVIDIA's forward compatibility package for\n"
                     "         CUDA %d (cuda-compat), where this driver's branch supports it\n", need / 1000);
    if (fc_torch_library(obj) && tg->driver_cuda >= 11000)
        fprintf(out, "         or a PyTorch build for CUDA %d.x (a cu%d* wheel), which this driver starts\n",
                tg->driver_cuda / 1000, tg->driver_cuda / 1000);
}

const char *colour_on(const config *cfg, const char *word)
{
    if (!cfg->colour)
        return "";
    if (strcmp(word, "ok") == 0)
        return "\033[32m";
    if (strcmp(word, "none") == 0)
        return "\033[1;31m";
    return "\033[33m"; /* partial, stale */
}

const char *colour_off(const config *cfg)
{
    return cfg->colour ? "\033[0m" : "";
}

static const char *modules(size_t n)
{
    return n == 1 ? "module" : "modules";
}

/* "2 native, 5 through compatible SASS, 1 only through PTX JIT", zero parts left out. */
static void print_ways(FILE *out, const fc_verdict *v)
{
    char n[32];
    const char *sep = "";
    if (v->native) {
        fprintf(out, "%s native", fmt_count(v->native, n, sizeof n));
        sep = ", ";
    }
    if (v->compatible) {
        fprintf(out, "%s%s through compatible SASS", sep, fmt_count(v->compatible, n, sizeof n));
        sep = ", ";
    }
    if (v->jit) {
        fprintf(out, "%s%s only through PTX JIT", sep, fmt_count(v->jit, n, sizeof n));
        sep = ", ";
    }
    if (v->runtime_linked)
        fprintf(out, "%s%s only through the runtime's own link", sep, fmt_count(v->runtime_linked, n, sizeof n));
}

/* "    missing here: 3 kernels: a, b, c" with at most five names, each cut to fit. */
static void print_missing_kernels(FILE *out, const fc_judgement *j, size_t t)
{
    const fc_missing_kernel *missing;
    size_t n = fc_judgement_missing_kernels(&missing, j, t);
    char count[32];
    if (!n) {
        /* (where nothing loads, no kernel was read from what fails: said by the sentence) */
        if (fc_judgement_verdict(j, t)->status != FC_VERDICT_NONE)
            fputs("    missing here: no kernel (what fails here is also provided by a module that loads)\n", out);
        return;
    }
    fprintf(out, "    missing here: %s kernel%s%s\n", fmt_count(n, count, sizeof count), n == 1 ? "" : "s",
            n > 5 ? ", among them:" : ":");
    for (size_t m = 0; m < n && m < 5; m++) {
        const fc_missing_kernel *mk = &missing[m];
        fprintf(out, "      %s  (in %s)\n", escaped_cut(mk->demangled, 50),
                mk->available_in[0] ? mk->available_in : "no image");
    }
    if (n > 5)
        fprintf(out, "      and %s more (--json lists them all)\n", fmt_count(n - 5, count, sizeof count));
}

bool print_verdict_sentence(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j, size_t t)
{
    const fc_runtime_need *runtime = fc_judgement_runtime(j);
    const fc_verdict *v = fc_judgement_verdict(j, t);
    const fc_target *tg = &cfg->judge.targets[t];
    char n1[32], n2[32], n3[32];
    if (v->container == FC_REQUIRE_UNMET || v->container == FC_REQUIRE_INVALID || v->container == FC_REQUIRE_NO_DRIVER) {
        print_container_refusal(out, cfg, obj, v, tg);
        return true;
    }
    if (v->status == FC_VERDICT_NO_CODE)
        return false;
    size_t ok = v->native + v->compatible + v->jit + v->runtime_linked;
    if (v->gpu_needs_cuda) {
        char d[32], need[32];
        fprintf(out, "%snone%s, no driver before %s runs a GPU of compute capability %u.%u, and this one is "
                     "for %s: nothing loads there",
                colour_on(cfg, "none"), colour_off(cfg), driver_text(v->gpu_needs_cuda, need, sizeof need),
                tg->cc / 10, tg->cc % 10, driver_text(tg->driver_cuda, d, sizeof d));
    } else if (v->gpu_last_cuda) {
        const char *branch = "";
        fc_cc_last_cuda(tg->cc, &branch);
        char d[32];
        fprintf(out, "%snone%s, no driver after the %s branch runs a GPU of compute capability %u.%u, and "
                     "this one is for %s: nothing loads there",
                colour_on(cfg, "none"), colour_off(cfg), branch, tg->cc / 10, tg->cc % 10,
                driver_text(tg->driver_cuda, d, sizeof d));
    } else if (v->unlinked) {
        fprintf(out, "%snone%s, its relocatable device code (-rdc) was never device-linked: loading it "
                     "fails with \"undefined symbol: __cudaRegisterLinkedBinary_...\"",
                colour_on(cfg, "none"), colour_off(cfg));
    } else if (v->runtime_fails) {
        char d[32];
        fprintf(out, "%snone%s, %s cannot start on a driver for %s: every CUDA call fails with \"CUDA "
                     "driver version is insufficient for CUDA runtime version\"",
                colour_on(cfg, "none"), colour_off(cfg),
                obj->format == FC_FORMAT_IMAGE        ? "the CUDA runtime it ships"
                : runtime->kind == FC_RUNTIME_STATIC ? "its static CUDA runtime"
                : runtime->kind == FC_RUNTIME_SHARED && fc_is_cuda_runtime_library(runtime->decided_by)
                    ? "the CUDA runtime it needs"
                    : runtime->decided_by,
                driver_text(tg->driver_cuda, d, sizeof d));
    } else if (!v->modules) { /* only link inputs: what a device linker can make of them */
        const char *word = v->status == FC_VERDICT_OK ? "ok" : v->status == FC_VERDICT_NONE ? "none" : "partial";
        fprintf(out, "%s%s%s, ", colour_on(cfg, word), word, colour_off(cfg));
        if (v->status == FC_VERDICT_OK) {
            if (v->link_inputs == 1)
                fputs("its link input has", out);
            else
                fprintf(out, "each of its %s link inputs has", fmt_count(v->link_inputs, n1, sizeof n1));
            fprintf(out, " an image the device linker takes for sm_%u (", tg->cc);
            print_link_ways(out, v);
            fputs(")", out);
        } else if (v->status == FC_VERDICT_NONE) {
            fprintf(out, "no link input has an image the device linker can use for sm_%u: linking for "
                         "sm_%u fails with undefined references", tg->cc, tg->cc);
        } else {
            fprintf(out, "%s of %s link inputs have an image the device linker can use for sm_%u; the "
                         "others do not", fmt_count(v->linkable, n1, sizeof n1),
                    fmt_count(v->link_inputs, n2, sizeof n2), tg->cc);
        }
    } else {
        switch (v->status) {
        case FC_VERDICT_OK:
            if (v->native == v->modules) {
                fprintf(out, "%sok%s, native SASS for %s %s %s", colour_on(cfg, "ok"), colour_off(cfg),
                        v->modules == 1 ? "its" : "all",
                        fmt_count(v->modules, n1, sizeof n1), modules(v->modules));
            } else {
                fprintf(out, "%sok%s, %s %s load%s: ", colour_on(cfg, "ok"), colour_off(cfg),
                        fmt_count(v->modules, n1, sizeof n1), modules(v->modules), v->modules == 1 ? "s" : "");
                print_ways(out, v);
            }
            break;
        case FC_VERDICT_PARTIAL:
            if (ok == v->modules && v->link_inputs == v->linkable) { /* kernels some images lack (-k) */
                size_t n = v->modules_lacking_kernels;
                if (v->modules == 1)
                    fprintf(out, "%spartial%s, its module loads, but the image it loads here lacks kernels its "
                                 "other images hold", colour_on(cfg, "partial"), colour_off(cfg));
                else
                    fprintf(out, "%spartial%s, all %s %s load, but %s of them load an image here that lacks "
                                 "kernels their other images hold", colour_on(cfg, "partial"), colour_off(cfg),
                            fmt_count(v->modules, n1, sizeof n1), modules(v->modules), fmt_count(n, n2, sizeof n2));
                break;
            }
            if (ok == v->modules) { /* every module loads; some link input has no image */
                fprintf(out, "%spartial%s, all %s %s load; %s of %s link inputs (", colour_on(cfg, "partial"),
                        colour_off(cfg), fmt_count(v->modules, n1, sizeof n1), modules(v->modules),
                        fmt_count(v->link_inputs - v->linkable, n2, sizeof n2),
                        fmt_count(v->link_inputs, n3, sizeof n3));
            } else {
                fprintf(out, "%spartial%s, %s of %s modules load; %s cannot (", colour_on(cfg, "partial"),
                        colour_off(cfg), fmt_count(ok, n1, sizeof n1),
                        fmt_count(v->modules, n2, sizeof n2), fmt_count(v->modules - ok, n3, sizeof n3));
            }
            print_failures(out, v, tg->cc);
            fputs(")", out);
            break;
        case FC_VERDICT_NONE:
            if (v->registered_all_fail) { /* rule 12: only what the file keeps itself is usable */
                size_t n = v->registered_failing, loading = ok - v->registered_loading,
                       linking = v->linkable - v->registered_linkable;
                fprintf(out, "%snone%s, %s %s %s the CUDA runtime registers %s (", colour_on(cfg, "none"),
                        colour_off(cfg), n == 1 ? "its" : "none of its", fmt_count(n, n1, sizeof n1), modules(n),
                        n == 1 ? "cannot load" : "can load");
                print_failures(out, v, tg->cc);
                fputs(")", out);
                if (v->rdc_unlinkable)
                    fprintf(out, ", nor ha%s %s -rdc object%s an image the runtime could link for sm_%u",
                            v->rdc_unlinkable == 1 ? "s its" : "s any of its",
                            fmt_count(v->rdc_unlinkable, n3, sizeof n3), v->rdc_unlinkable == 1 ? "" : "s", tg->cc);
                fputs(": every kernel launched through the runtime fails; only ", out);
                if (loading)
                    fprintf(out, "%s %s that it loads itself load%s", fmt_count(loading, n2, sizeof n2),
                            modules(loading), loading == 1 ? "s" : "");
                if (loading && linking)
                    fputs(", and ", out);
                if (linking)
                    fprintf(out, "%s link input%s that it links itself ha%s an image for sm_%u",
                            fmt_count(linking, n3, sizeof n3), linking == 1 ? "" : "s", linking == 1 ? "s" : "ve",
                            tg->cc);
                break;
            }
            fprintf(out, "%snone%s, no module can load (", colour_on(cfg, "none"), colour_off(cfg));
            print_failures(out, v, tg->cc);
            fputs("): every kernel launch fails with ", out);
            print_launch_error(out, v);
            break;
        case FC_VERDICT_NO_CODE:
            break;
        }
    }
    return true;
}

bool print_arch_check(FILE *out, const config *cfg, const fc_judgement *j)
{
    const fc_arch_check *check = fc_judgement_arch_check(j);
    size_t registered = fc_judgement_registered(j);
    if (!check || (!registered && !check->no_code))
        return false;
    fprintf(out, "  arch list \"%s\": ", escaped(cfg->arch_list_text));
    const fc_verdict *v = fc_judgement_verdict(j, 0);
    if (check->no_code && v && (v->defines_nothing || v->empty)) {
        fputs("missing every image: the file's registered code defines no kernel\n", out);
    } else if (check->no_code) {
        fputs("missing every image: the file holds no CUDA code (built without CUDA?)\n", out);
    } else if (check->matches) {
        fputs("the file holds exactly what it builds\n", out);
    } else {
        const char *sep = "";
        for (size_t k = 0; k < check->n_expected; k++) {
            const fc_arch_expectation *x = &check->expected[k];
            if (!x->lacking)
                continue;
            fprintf(out, "%smissing %s%u%s", sep, x->kind == FC_IMAGE_PTX ? "compute_" : "sm_", x->cc,
                    x->arch_specific ? "a" : "");
            if (x->lacking < registered)
                fprintf(out, " in %zu of %zu containers", x->lacking, registered);
            sep = "; ";
        }
        if (check->n_unexpected) {
            fprintf(out, "%snot asked for:", sep);
            for (size_t u = 0; u < check->n_unexpected; u++)
                fprintf(out, " %s", check->unexpected[u]);
        }
        fputc('\n', out);
    }
    return true;
}

/* "    accepted (rules:3): REASON" under a verdict an --accept rule accepts. */
static void print_accepted(FILE *out, const config *cfg, size_t t)
{
    const accept_rule *a = cfg->accepted[t];
    if (!a)
        return;
    char *line = NULL;
    size_t len = 0;
    FILE *s = memstream_open(&line, &len);
    if (!s)
        return;
    fprintf(s, "    %saccepted%s (%s:%u): %s\n", colour_on(cfg, "accepted"), colour_off(cfg), quoted(cfg->accept->path),
            a->line, escaped(a->reason));
    if (memstream_close(s, &line))
        wrap_print(out, line);
    free(line);
}

void print_verdicts(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j)
{
    const fc_runtime_need *runtime = fc_judgement_runtime(j);
    char n1[32], n2[32], label[300];
    bool explained = false, explained_idle = false;
    for (size_t t = 0; t < cfg->judge.n_targets; t++) {
        const fc_verdict *v = fc_judgement_verdict(j, t);
        const fc_target *tg = &cfg->judge.targets[t];
        target_label(tg, label, sizeof label);
        /* In an image whose container the toolkit refuses to start, that is the verdict. */
        if (print_container_verdict(out, cfg, obj, v, tg, label)) {
            print_accepted(out, cfg, t);
            continue;
        }
        if (v->status == FC_VERDICT_NO_CODE) {
            /* Said once: the same on every target. */
            if (v->defines_nothing && !explained_idle)
                fprintf(out, "  no kernel to launch on any GPU: its %s registered %s define%s no function\n"
                             "    and no variable\n",
                        fmt_count(v->defines_nothing, n1, sizeof n1),
                        v->defines_nothing == 1 ? "container" : "containers", v->defines_nothing == 1 ? "s" : "");
            else if (v->empty && !explained_idle)
                fprintf(out, "  no kernel to launch on any GPU: its %s %s no image\n",
                        fmt_count(v->empty, n1, sizeof n1), v->empty == 1 ? "container holds" : "containers hold");
            explained_idle = true;
            continue;
        }
        /* The verdict is one sentence, wrapped to 80 columns. */
        char *sentence = NULL;
        size_t sentence_len = 0;
        FILE *line = memstream_open(&sentence, &sentence_len);
        if (!line) /* noted: the run fails for the verdict left out (oom.h) */
            continue;
        fprintf(line, "  %s: ", label);
        print_verdict_sentence(line, cfg, obj, j, t);
        fputc('\n', line);
        if (memstream_close(line, &sentence))
            wrap_print(out, sentence);
        free(sentence);
        print_accepted(out, cfg, t);
        if (v->gpu_last_cuda && v->status == FC_VERDICT_NONE) { /* nothing else to say of it */
            const fc_runtime_need *rt = fc_judgement_runtime(j);
            const char *branch = "";
            fc_cc_last_cuda(tg->cc, &branch);
            char d[32];
            if (tg->cc == 101)
                fprintf(out, "    fix: from CUDA 13.0 this GPU (Jetson Thor) is compute capability 11.0:\n"
                             "         judge it as --gpu 11.0\n");
            else if (rt && rt->cuda > v->gpu_last_cuda)
                fprintf(out, "    fix: a newer GPU: its CUDA runtime needs a driver for %s, and none of those\n"
                             "         runs this one\n", driver_text(rt->cuda, d, sizeof d));
            else
                fprintf(out, "    fix: a driver of the %s branch (for %s) or an older one, or a newer GPU\n", branch,
                        driver_text(v->gpu_last_cuda, d, sizeof d));
            continue;
        }
        if (v->gpu_needs_cuda && v->status == FC_VERDICT_NONE) { /* nothing else to say of it */
            /* A driver the GPU needs, or the CUDA runtime, whichever is newer: a 12.8 driver on
             * an RTX 5090 does not start libcudart.so.13. */
            const fc_runtime_need *rt = fc_judgement_runtime(j);
            int need = rt && rt->cuda > v->gpu_needs_cuda ? rt->cuda : v->gpu_needs_cuda;
            fputs("    fix: install ", out);
            print_driver_need(out, obj, need); /* (no Linux release for a Windows file: rv45 F6) */
            fputc('\n', out);
            continue;
        }
        if (v->status == FC_VERDICT_PARTIAL && !explained) {
            fputs("    (their kernels fail only if launched here; libraries often carry modules\n"
                  "    for one architecture that are never launched on another)\n",
                  out);
            explained = true;
        }
        /* A file without containers (judged by its runtime alone) has no kernel to list. */
        if (cfg->judge.kernels && (v->status == FC_VERDICT_PARTIAL || v->status == FC_VERDICT_NONE) &&
            obj->n_containers)
            print_missing_kernels(out, j, t);
        if (tg->driver_cuda && !runtime->cuda &&
            (runtime->kind == FC_RUNTIME_STATIC || runtime->kind == FC_RUNTIME_UNKNOWN))
            fputs("    note: the CUDA release of its runtime is recorded nowhere in the file: whether\n"
                  "          this driver starts it is not judged\n", out);
        else if (tg->driver_cuda && runtime->floor_only && !v->runtime_fails)
            fprintf(out, "    note: its static runtime names no driver function that dates it; its code\n"
                         "          needs CUDA %d.%d or newer, and whether this driver starts the\n"
                         "          runtime is not judged\n", runtime->built_by / 1000, runtime->built_by % 1000 / 10);
        if (v->unlinked)
            fputs("    fix: add the device link step (nvcc -dlink;\n"
                  "         CMake: CUDA_RESOLVE_DEVICE_SYMBOLS ON)\n", out);
        else if (v->runtime_fails)
            print_runtime_fix(out, obj, j, tg);
        else if (v->toolkit_too_new) {
            fputs("    fix: install ", out);
            print_driver_need(out, obj, v->toolkit_too_new_cuda / 1000 * 1000);
            fputs(", or build the cubins\n         with a toolkit of the driver's CUDA major\n", out);
        }
        else if (v->unsupported_compression) {
            fputs("    fix: install ", out);
            print_driver_need(out, obj, 12040);
            fputs(", or rebuild with\n         nvcc --compress-mode=speed (LZ4) or none\n", out);
        }
        else if (v->status == FC_VERDICT_NONE)
            print_fix(out, cfg, obj, j, v, tg, "    ");
        if (v->status == FC_VERDICT_PARTIAL && v->unsupported_ptx)
            print_fix(out, cfg, obj, j, v, tg, "    ");
        if (v->compatible)
            fprintf(out, "    note: %s %s run%s older sm_%u SASS, not code built for sm_%u\n",
                    fmt_count(v->compatible, n1, sizeof n1), modules(v->compatible), v->compatible == 1 ? "s" : "",
                    v->compatible_arch, tg->cc);
        if (v->jit) {
            const fc_ptx_need *p = fc_judgement_ptx(j);
            char d[32] = "";
            fprintf(out, "    note: %s %s run%s only through PTX JIT (compute_%u): slow first launch",
                    fmt_count(v->jit, n1, sizeof n1), modules(v->jit), v->jit == 1 ? "s" : "", v->jit_arch);
            if (p->cuda)
                fprintf(out, ",\n          needs a driver for %s or newer%s%s%s", driver_text(p->cuda, d, sizeof d),
                        p->min_driver ? " (>= " : "", p->min_driver ? p->min_driver : "", p->min_driver ? ")" : "");
            fputc('\n', out);
        }
        if (v->modules && v->link_inputs) {
            fprintf(out, "    note: %s link %s, linked at run time by the library itself:\n          ",
                    fmt_count(v->link_inputs, n1, sizeof n1), v->link_inputs == 1 ? "input" : "inputs");
            if (v->linkable == v->link_inputs) {
                fputs("each has an image for it (", out);
                print_link_ways(out, v);
                fputs(")\n", out);
            } else {
                fprintf(out, "%s %s no image for it\n", fmt_count(v->link_inputs - v->linkable, n1, sizeof n1),
                        v->link_inputs - v->linkable == 1 ? "has" : "have");
            }
        }
        if (v->invalid_ptx > v->unreadable_ptx)
            fprintf(out, "    note: %s %s PTX compiled as a whole program that calls functions defined "
                         "elsewhere (ptxas: \"Unresolved extern function\"): link it with their code\n",
                    fmt_count(v->invalid_ptx - v->unreadable_ptx, n1, sizeof n1),
                    v->invalid_ptx - v->unreadable_ptx == 1 ? "module holds" : "modules hold");
        if (v->unreadable_ptx)
            fprintf(out, "    note: %s %s PTX the JIT cannot read (a byte outside ASCII: anywhere for CUDA 13's "
                         "JIT, outside comments for older ones; a byte order mark among them; a .version older than "
                         "its .target; a .target the GPU cannot take, whatever the entry header says; no .version "
                         "or .target; .address_size 32 for CUDA 13; .target debug without debug information; compressed "
                         "bytes that do not inflate; or text "
                         "cut short)\n",
                    fmt_count(v->unreadable_ptx, n1, sizeof n1), v->unreadable_ptx == 1 ? "module holds" : "modules hold");
        if (v->damaged_cubins)
            fprintf(out, "    note: %s %s a cubin whose ELF header is damaged, or names another SM\n"
                         "          than its entry, or is stored under a compression flag it does not\n"
                         "          have: the driver refuses it, PTX beside it or not; the file is corrupt\n",
                    fmt_count(v->damaged_cubins, n1, sizeof n1), v->damaged_cubins == 1 ? "module holds" : "modules hold");
        if (v->unseen_order)
            fprintf(out, "    note: %s %s an image the driver may choose instead of the one fatcheck\n"
                         "          takes first (an f image, or an a one beyond 9.0: an order never\n"
                         "          seen on a driver), and that one fails: counted as failing\n",
                    fmt_count(v->unseen_order, n1, sizeof n1), v->unseen_order == 1 ? "module holds" : "modules hold");
        if (v->runtime_linked)
            fprintf(out, "    note: %s %s no code for sm_%u as linked; the CUDA runtime links the\n"
                         "          file's -rdc objects itself when it is loaded, each with an image for\n"
                         "          sm_%u (slow first load where they are PTX)\n",
                    fmt_count(v->runtime_linked, n1, sizeof n1), v->runtime_linked == 1 ? "module has" : "modules have",
                    tg->cc, tg->cc);
        if (v->unused_link_inputs && !v->runtime_linked) {
            if (fc_object_registered_section(obj))
                fprintf(out, "    note: %s __nv_relfatbin link %s not counted: the runtime registers .nv_fatbin\n",
                        fmt_count(v->unused_link_inputs, n1, sizeof n1), v->unused_link_inputs == 1 ? "input" : "inputs");
            else /* no section table: the objects are known by their records */
                fprintf(out, "    note: %s -rdc %s not counted: the runtime registers the device link\n"
                             "          step's output\n",
                        fmt_count(v->unused_link_inputs, n1, sizeof n1), v->unused_link_inputs == 1 ? "object" : "objects");
        }
        if (fc_judgement_probe_totals(j)) {
            size_t agree = 0, compared = 0;
            for (size_t c = 0; c < obj->n_containers; c++) {
                const fc_probe_result *p = fc_judgement_probe(j, c, t);
                if (p->code == -3 || !p->compared)
                    continue;
                compared++;
                agree += p->agrees;
            }
            if (compared)
                fprintf(out, "    probe: the driver agreed on %s of %s modules\n", fmt_count(agree, n1, sizeof n1),
                        fmt_count(compared, n2, sizeof n2));
            size_t shown = 0;
            for (size_t c = 0; c < obj->n_containers; c++) {
                const fc_probe_result *p = fc_judgement_probe(j, c, t);
                if (p->code == -3 || !p->compared || p->agrees)
                    continue;
                if (shown++ == 10) {
                    fprintf(out, "    probe: and %s more disagreements\n",
                            fmt_count(compared - agree - 10, n1, sizeof n1));
                    break;
                }
                const fc_container *ct = &obj->containers[c];
                fc_load l = fc_judgement_load(j, c, t);
                fprintf(out, "    probe: container at 0x%llx (%s): predicted %s, the driver %s", (unsigned long long)ct->offset,
                        ct->section ? escaped(ct->section) : fc_origin_name(ct->origin), fc_load_result_name(l.result),
                        p->code == -1 ? "crashed" : "returned");
                if (p->code == -1)
                    fputc('\n', out);
                else
                    fprintf(out, " %d\n", p->code);
            }
        }
    }
    print_arch_check(out, cfg, j);
}

/* Whether some target cannot load all of the extension. */
static bool torch_ext_failing(const config *cfg, const fc_judgement *j)
{
    for (size_t t = 0; j && t < cfg->judge.n_targets; t++) {
        fc_verdict_status s = fc_judgement_verdict(j, t)->status;
        if (s == FC_VERDICT_NONE || s == FC_VERDICT_PARTIAL)
            return true;
    }
    return false;
}

void print_torch_header(FILE *out, const config *cfg)
{
    const fc_torch_extension *x = cfg->torch_ext;
    fprintf(out, "torch extension %s", quoted(x->name));
    if (x->python[0])
        fprintf(out, " (built for Python %s, %s)", escaped(x->python),
                x->cuda ? escaped(x->build) : "CPU");
    fputc('\n', out);
}

void print_torch_fix(FILE *out, const config *cfg, const fc_object *obj, const fc_judgement *j)
{
    if (!j || !cfg->torch_ext)
        return;
    const fc_torch_extension *x = cfg->torch_ext;
    bool stale = torch_ext_stale(cfg) == 1;
    if (stale) {
        fprintf(out, "  %sstale%s: this folder is for Python %s and %s, but the current Python is %s", colour_on(cfg, "stale"),
                colour_off(cfg), escaped(x->python),
                x->cuda ? escaped(x->build) : "CPU", escaped(cfg->env.python));
        if (cfg->env.torch_cuda > 0)
            fprintf(out, " with torch for CUDA %d.%d", cfg->env.torch_cuda / 1000, cfg->env.torch_cuda % 1000 / 10);
        else if (cfg->env.torch_cuda == 0)
            fputs(" with a CPU build of torch", out);
        fprintf(out, "\n         (%s): it builds into another folder and never loads this one\n", escaped(cfg->env.source));
    }
    bool failing = torch_ext_failing(cfg, j);
    if (!stale && !failing)
        return;
    unsigned ccs[64];
    size_t n = fc_covering_ccs(ccs, 64, obj, cfg->judge.targets, cfg->judge.n_targets);
    fc_build_flags f;
    fc_build_flags_format(&f, ccs, n, false);
    fprintf(out, "  fix: rm -rf %s\n", shell_quoted(x->dir));
    if (failing)
        fprintf(out, "       export TORCH_CUDA_ARCH_LIST=\"%s\"\n", f.torch);
    if (failing || stale)
        fputs("       then load the extension again: PyTorch rebuilds it\n", out);
}
