/* judge.c - applying the library's load prediction to every container and target, the
 * verdict per file, the arch list check, and the advice spellings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"

const char *cc_text(unsigned cc, char *buf, size_t size)
{
    snprintf(buf, size, "%u.%u", cc / 10, cc % 10);
    return buf;
}

static void count_load(verdict *v, const fc_container *c, fc_load l)
{
    v->modules++;
    switch (l.result) {
    case FC_LOAD_SUCCESS:
        if (l.via == FC_VIA_NATIVE) {
            v->native++;
        } else if (l.via == FC_VIA_COMPATIBLE) {
            v->compatible++;
            if (c->entries[l.entry].arch > v->compatible_arch)
                v->compatible_arch = c->entries[l.entry].arch;
        } else {
            v->jit++;
            if (c->entries[l.entry].arch > v->jit_arch)
                v->jit_arch = c->entries[l.entry].arch;
        }
        break;
    case FC_LOAD_NO_BINARY: v->no_binary++; break;
    case FC_LOAD_UNSUPPORTED_PTX: v->unsupported_ptx++; break;
    case FC_LOAD_JIT_DISABLED: v->jit_disabled++; break;
    case FC_LOAD_INVALID_PTX: v->invalid_ptx++; break;
    case FC_LOAD_RELOCATABLE: v->relocatable++; break;
    case FC_LOAD_LINK_INPUT: break; /* counted by count_link */
    }
}

static void count_link(verdict *v, fc_link k)
{
    v->link_inputs++;
    v->linkable += k.via != FC_LINK_VIA_NONE;
    v->linked_via[k.via]++;
}

static void finish_verdict(verdict *v)
{
    size_t units = v->modules + v->link_inputs;
    size_t ok = v->native + v->compatible + v->jit + v->linkable;
    bool refused = v->container == FC_REQUIRE_UNMET || v->container == FC_REQUIRE_INVALID;
    if (v->runtime_fails || v->unlinked || refused) /* nothing runs when the runtime or the container cannot start */
        v->status = VERDICT_NONE;
    else if (!units)
        v->status = VERDICT_NO_CODE;
    else if (ok == units)
        v->status = VERDICT_OK;
    else if (ok == 0)
        v->status = VERDICT_NONE;
    else
        v->status = VERDICT_PARTIAL;
}

/* Maps a CUresult from the probe onto the prediction it should equal (modules only: a link
 * input is no claim about cuModuleLoadData). */
static bool probe_agrees(int code, fc_load predicted)
{
    switch (predicted.result) {
    case FC_LOAD_SUCCESS: return code == 0;
    case FC_LOAD_NO_BINARY: return code == 209;
    case FC_LOAD_UNSUPPORTED_PTX: return code == 222;
    case FC_LOAD_JIT_DISABLED: return code == 223;
    case FC_LOAD_INVALID_PTX: return code == 218;
    case FC_LOAD_RELOCATABLE: return code == 200 || code == 500;
    case FC_LOAD_LINK_INPUT: break;
    }
    return false;
}

bool container_registered(const fc_container *c)
{
    return c->origin != FC_ORIGIN_EMBEDDED && c->origin != FC_ORIGIN_PTX_TEXT;
}

static void check_arch_list(judgement *j, const fc_object *obj)
{
    const config *cfg = j->cfg;
    for (size_t i = 0; i < cfg->arch_list.n && j->n_expected + 2 <= 128; i++) {
        const fc_arch_entry *a = &cfg->arch_list.entries[i];
        j->expected[j->n_expected++] = (arch_expectation){FC_IMAGE_CUBIN, a->cc, a->arch_specific, 0};
        if (a->ptx)
            j->expected[j->n_expected++] = (arch_expectation){FC_IMAGE_PTX, a->cc, a->arch_specific, 0};
    }
    for (size_t c = 0; c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        if (!container_registered(ct))
            continue;
        for (size_t k = 0; k < j->n_expected; k++) {
            arch_expectation *x = &j->expected[k];
            bool found = false;
            for (size_t e = 0; e < ct->n_entries && !found; e++) {
                const fc_entry *en = &ct->entries[e];
                found = en->kind == x->kind && en->arch == x->cc &&
                        (en->variant == FC_VARIANT_ARCH_SPECIFIC) == x->arch_specific;
            }
            x->lacking += !found;
        }
        for (size_t e = 0; e < ct->n_entries; e++) {
            const fc_entry *en = &ct->entries[e];
            if (en->kind != FC_IMAGE_CUBIN && en->kind != FC_IMAGE_PTX)
                continue;
            bool wanted = false;
            for (size_t k = 0; k < j->n_expected && !wanted; k++)
                wanted = j->expected[k].kind == en->kind && j->expected[k].cc == en->arch &&
                         j->expected[k].arch_specific == (en->variant == FC_VARIANT_ARCH_SPECIFIC);
            if (wanted)
                continue;
            char name[16];
            fc_entry_arch_name(en, name, sizeof name);
            bool seen = false;
            for (size_t u = 0; u < j->n_unexpected && !seen; u++)
                seen = strcmp(j->unexpected[u], name) == 0;
            if (!seen && j->n_unexpected < 64)
                snprintf(j->unexpected[j->n_unexpected++], sizeof j->unexpected[0], "%s", name);
        }
    }
    j->arch_list_ok = j->n_unexpected == 0 && j->registered > 0;
    for (size_t k = 0; k < j->n_expected; k++)
        j->arch_list_ok &= j->expected[k].lacking == 0;
}

bool section_is_fatbin(const char *name)
{
    return name && (strcmp(name, ".nv_fatbin") == 0 || strcmp(name, ".nv_fatb") == 0);
}

bool section_is_relfatbin(const char *name)
{
    return name && (strcmp(name, "__nv_relfatbin") == 0 || strcmp(name, "__nv_rel") == 0);
}

static bool has_fatbin_section(const fc_object *obj)
{
    for (size_t c = 0; c < obj->n_containers; c++)
        if (section_is_fatbin(obj->containers[c].section))
            return true;
    return false;
}

/* What an image's own CUDA runtimes need: the oldest driver that starts one of them (a program
 * that uses another names it, and is judged by it). */
static void image_runtime(const fc_oci_image *img, fc_runtime_need *out)
{
    const fc_oci_runtime *oldest = NULL;
    for (size_t i = 0; img && i < img->n_runtimes; i++)
        if (img->runtimes[i].needs && (!oldest || img->runtimes[i].needs < oldest->needs))
            oldest = &img->runtimes[i];
    if (!oldest)
        return;
    out->kind = FC_RUNTIME_SHARED;
    out->cuda = oldest->needs;
    const char *base = strrchr(oldest->path, '/');
    snprintf(out->decided_by, sizeof out->decided_by, "%s", base ? base + 1 : oldest->path);
}

judgement *judge_object(const config *cfg, const fc_object *obj)
{
    judgement *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->cfg = cfg;
    j->n_containers = obj->n_containers;
    size_t nt = cfg->n_targets;
    j->unused = calloc(obj->n_containers ? obj->n_containers : 1, sizeof *j->unused);
    if (!j->unused) {
        free(j);
        return NULL;
    }
    if (nt && obj->n_containers) {
        j->loads = calloc(obj->n_containers * nt, sizeof *j->loads);
        j->links = calloc(obj->n_containers * nt, sizeof *j->links);
        if (cfg->probe && cfg->prober)
            j->probes = calloc(obj->n_containers * nt, sizeof *j->probes);
        if (!j->loads || !j->links || (cfg->probe && cfg->prober && !j->probes)) {
            judgement_free(j);
            return NULL;
        }
    }
    /* A library with both sections registers .nv_fatbin; its __nv_relfatbin holds link
     * inputs that are never loaded (cuobjdump lists only .nv_fatbin then too). */
    bool link_inputs_unused = has_fatbin_section(obj);
    for (size_t c = 0; c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        bool unused = link_inputs_unused && section_is_relfatbin(ct->section);
        if (j->unused)
            j->unused[c] = unused;
        j->registered += container_registered(ct);
        for (size_t e = 0; e < ct->n_entries; e++) {
            const fc_entry *en = &ct->entries[e];
            if (en->kind == FC_IMAGE_PTX &&
                (en->version_major > j->ptx_isa_major ||
                 (en->version_major == j->ptx_isa_major && en->version_minor > j->ptx_isa_minor))) {
                j->ptx_isa_major = en->version_major;
                j->ptx_isa_minor = en->version_minor;
            }
        }
        for (size_t t = 0; t < nt; t++) {
            const fc_target *tg = &cfg->targets[t];
            fc_load l = fc_refine_load(obj, ct, fc_predict_load(ct, tg, &cfg->jit), cfg->opts);
            fc_link k = {FC_LINK_VIA_NONE, -1};
            if (l.result == FC_LOAD_LINK_INPUT) {
                k = fc_predict_link(ct, tg);
                l.entry = k.entry;
            }
            j->loads[c * nt + t] = l;
            j->links[c * nt + t] = k;
            if (unused)
                j->verdicts[t].left_out++;
            else if (l.result == FC_LOAD_LINK_INPUT)
                count_link(&j->verdicts[t], k);
            else
                count_load(&j->verdicts[t], ct, l);
            if (!j->probes)
                continue;
            probe_result *pr = &j->probes[c * nt + t];
            pr->code = -3;
            if (cfg->device[t] < 0 || !obj->image)
                continue;
            bool crashed = false;
            int code = -1;
            if (fc_prober_load(cfg->prober, (unsigned)cfg->device[t], (const uint8_t *)obj->image + ct->offset,
                               (size_t)ct->size, &code, &crashed) != FC_OK)
                continue;
            pr->code = crashed ? -1 : code;
            /* What the driver says of a link input is shown, never compared: fatcheck claims
             * nothing about loading it as a module. */
            pr->compared = l.result != FC_LOAD_LINK_INPUT;
            if (!pr->compared)
                continue;
            pr->agrees = !crashed && probe_agrees(code, l);
            j->probe_compared++;
            j->probe_crashes += crashed;
            j->probe_disagreements += !pr->agrees;
        }
    }
    fc_object_runtime(obj, cfg->opts, &j->runtime);
    if (obj->format == FC_FORMAT_IMAGE)
        image_runtime(obj->in_image->image, &j->runtime);
    for (size_t t = 0; t < nt; t++) {
        verdict *v = &j->verdicts[t];
        v->runtime_fails = !fc_runtime_starts(&j->runtime, cfg->targets[t].driver_cuda);
        v->unlinked = obj->device_link_missing;
        if (obj->in_image)
            v->container = fc_oci_requirements_check(obj->in_image->image, &cfg->targets[t], v->container_why,
                                                     sizeof v->container_why);
        finish_verdict(v);
    }
    if (cfg->have_arch_list)
        check_arch_list(j, obj);
    if (cfg->kernels && !(j->kv = kernel_view_new(obj, cfg->opts, j))) {
        judgement_free(j);
        return NULL;
    }
    return j;
}

void judgement_free(judgement *j)
{
    if (!j)
        return;
    kernel_view_free(j->kv, j->cfg->n_targets);
    free(j->loads);
    free(j->links);
    free(j->unused);
    free(j->probes);
    free(j);
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static size_t add_cc(unsigned *out, size_t n, size_t max, unsigned cc)
{
    for (size_t i = 0; i < n; i++)
        if (out[i] == cc)
            return n;
    if (n < max)
        out[n++] = cc;
    return n;
}

size_t covering_ccs(const config *cfg, const fc_object *obj, unsigned *out, size_t max)
{
    size_t n = 0;
    for (size_t c = 0; obj && c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        if (!container_registered(ct))
            continue;
        for (size_t e = 0; e < ct->n_entries; e++)
            if (ct->entries[e].kind == FC_IMAGE_CUBIN && ct->entries[e].variant == FC_VARIANT_NONE)
                n = add_cc(out, n, max, ct->entries[e].arch);
    }
    for (size_t t = 0; t < cfg->n_targets; t++)
        n = add_cc(out, n, max, cfg->targets[t].cc);
    qsort(out, n, sizeof *out, cmp_unsigned);
    return n;
}

void format_torch_arch_list(const unsigned *ccs, size_t n, bool ptx, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%u.%u%s", i ? ";" : "", ccs[i] / 10, ccs[i] % 10,
                              ptx && i + 1 == n ? "+PTX" : "");
}

static void format_cmake_archs(const unsigned *ccs, size_t n, bool ptx, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%u%s", i ? ";" : "", ccs[i],
                              ptx && i + 1 == n ? "" : "-real");
}

static void format_gencode(const unsigned *ccs, size_t n, bool ptx, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s-gencode arch=compute_%u,code=sm_%u", i ? " " : "", ccs[i],
                              ccs[i]);
    if (ptx && n && k < size)
        snprintf(buf + k, size - k, " -gencode arch=compute_%u,code=compute_%u", ccs[n - 1], ccs[n - 1]);
}

void format_build_flags(const unsigned *ccs, size_t n, bool ptx, build_flags *out)
{
    format_torch_arch_list(ccs, n, ptx, out->torch, sizeof out->torch);
    format_cmake_archs(ccs, n, ptx, out->cmake, sizeof out->cmake);
    format_gencode(ccs, n, ptx, out->nvcc, sizeof out->nvcc);
}

bool object_has_problem(const config *cfg, const fc_object *obj, const judgement *j)
{
    if (obj->error)
        return true;
    if (!j)
        return false;
    for (size_t t = 0; t < cfg->n_targets; t++) {
        verdict_status s = j->verdicts[t].status;
        if (s == VERDICT_NONE || (cfg->strict && s == VERDICT_PARTIAL))
            return true;
    }
    if (cfg->have_arch_list && j->registered && !j->arch_list_ok)
        return true;
    return cfg->torch_ext && torch_ext_stale(cfg);
}

int last_major_building(unsigned cc)
{
    return cc < 35 ? 10 : cc < 50 ? 11 : cc < 75 ? 12 : 0;
}

unsigned first_cc_built_by(int major)
{
    return major >= 13 ? 75 : major == 12 ? 50 : major == 11 ? 35 : 30;
}
