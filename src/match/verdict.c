/* verdict.c - judging an object: the load or link prediction of every container on every
 * target, and from them each target's verdict, the probe's comparison, the PTX and runtime
 * requirements, the arch-list check and the problems a check fails on. One function per rule;
 * docs/matching.md says why each rule is what it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "decode.h"
#include "fatcheck.h"
#include "grow.h"
#include "verdict_internal.h"

void fc_judge_options_init(fc_judge_options *o)
{
    memset(o, 0, sizeof *o);
}

fc_status fc_judge_options_add_target(fc_judge_options *o, const fc_target *t, int device)
{
    for (size_t i = 0; device < 0 && i < o->n_targets; i++) {
        fc_target *same = &o->targets[i];
        /* Targets alike but for their driver releases are two: an image's NVIDIA_REQUIRE_CUDA
         * "driver>=550.100" holds for one 12.4 driver and not another (the second group of an
         * inventory was judged by the first's release). */
        if (o->device[i] < 0 && same->cc == t->cc && same->tegra == t->tegra && same->driver_cuda == t->driver_cuda &&
            strcmp(same->driver, t->driver) == 0) {
            size_t len = strlen(same->source), more = strlen(t->source);
            if (len + 2 + more < sizeof same->source && !strstr(same->source, t->source)) {
                memcpy(same->source + len, ", ", 2);
                memcpy(same->source + len + 2, t->source, more + 1);
            }
            return FC_OK;
        }
    }
    if (o->n_targets == FC_MAX_TARGETS)
        return FC_ERR_LIMIT;
    o->device[o->n_targets] = device;
    o->targets[o->n_targets++] = *t;
    return FC_OK;
}

bool fc_verdict_driver_fails(const fc_verdict *v)
{
    return v->runtime_fails || v->gpu_needs_cuda || v->gpu_last_cuda || v->container == FC_REQUIRE_UNMET ||
           v->container == FC_REQUIRE_INVALID || v->container == FC_REQUIRE_NO_DRIVER;
}

const char *fc_verdict_status_name(fc_verdict_status s)
{
    switch (s) {
    case FC_VERDICT_OK: return "ok";
    case FC_VERDICT_PARTIAL: return "partial";
    case FC_VERDICT_NONE: return "none";
    case FC_VERDICT_NO_CODE: break;
    }
    return "no-code";
}

bool fc_container_kept_as_data(const fc_container *c)
{
    return c->origin == FC_ORIGIN_EMBEDDED || c->origin == FC_ORIGIN_PTX_TEXT || c->origin == FC_ORIGIN_EMBEDDED_CUBIN;
}

const char *fc_object_registered_section(const fc_object *obj)
{
    const char *relfatbin = NULL;
    for (size_t i = 0; i < obj->n_containers; i++) {
        const char *s = obj->containers[i].section;
        if (obj->containers[i].origin != FC_ORIGIN_SECTION || !s)
            continue;
        if (fc_section_is_fatbin(s))
            return s;
        relfatbin = s;
    }
    return relfatbin;
}

/* Rule: a module counts by what the driver does with it; a success also records the newest
 * compatible or JIT-compiled arch, for the notes. */
static void count_load(fc_verdict *v, const fc_object *obj, const fc_container *c, fc_load l)
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
    case FC_LOAD_INVALID_PTX: v->invalid_ptx++, v->unreadable_ptx += l.unreadable; break;
    case FC_LOAD_RELOCATABLE: v->relocatable++; break;
    case FC_LOAD_INVALID_IMAGE:
    case FC_LOAD_INVALID_SOURCE:
    case FC_LOAD_UNCOMPRESS_FAILED: /* the image itself is refused: a damaged file */
        v->refused_images++;
        if (l.result == FC_LOAD_UNCOMPRESS_FAILED && c->entries[l.entry].compression == FC_COMPRESSION_LZ4)
            v->uncompress_no_binary++;
        else if (l.result == FC_LOAD_UNCOMPRESS_FAILED)
            v->uncompress_unknown++;
        if (c->entries[l.entry].kind == FC_IMAGE_CUBIN)
            v->damaged_cubins++;
        else
            v->invalid_ptx++, v->unreadable_ptx++, v->invalid_image += l.result == FC_LOAD_INVALID_IMAGE;
        break;
    case FC_LOAD_LINK_INPUT: break; /* counted by count_link */
    case FC_LOAD_EMPTY: break;      /* not a module */
    case FC_LOAD_UNSUPPORTED_COMPRESSION: v->unsupported_compression++; break;
    case FC_LOAD_TOOLKIT_TOO_NEW: {
        int built = fc_cubin_written_by(obj, &c->entries[l.entry]) / 1000 * 1000;
        v->toolkit_too_new++;
        if (built > v->toolkit_too_new_cuda)
            v->toolkit_too_new_cuda = built;
        break;
    }
    }
}

/* Rule: a link input counts as usable when the device linker has an image for the target. */
static void count_link(fc_verdict *v, fc_link k)
{
    v->link_inputs++;
    v->linkable += k.via != FC_LINK_VIA_NONE;
    v->linked_via[k.via]++;
}

/* Rule: the status from the counts. Nothing runs when the runtime or the container cannot
 * start, or when the code was never device-linked. */
static void finish_verdict(fc_verdict *v, bool registered_all_fail)
{
    size_t units = v->modules + v->link_inputs;
    size_t ok = v->native + v->compatible + v->jit + v->runtime_linked + v->linkable;
    bool refused = v->container == FC_REQUIRE_UNMET || v->container == FC_REQUIRE_INVALID ||
                   v->container == FC_REQUIRE_NO_DRIVER || ((v->gpu_needs_cuda || v->gpu_last_cuda) && units);
    if (v->runtime_fails || v->unlinked || refused)
        v->status = FC_VERDICT_NONE;
    else if (!units)
        v->status = FC_VERDICT_NO_CODE;
    else if (ok == units)
        v->status = FC_VERDICT_OK;
    else if (ok == 0)
        v->status = FC_VERDICT_NONE;
    else if (registered_all_fail)
        v->status = FC_VERDICT_NONE, v->registered_all_fail = true; /* only kept code loads: rule 12 */
    else
        v->status = FC_VERDICT_PARTIAL;
}

/* Whether a unit is usable on a target: a module that loads, a link input the linker takes. */
static bool unit_usable(fc_load l, fc_link k)
{
    return l.result == FC_LOAD_LINK_INPUT ? k.via != FC_LINK_VIA_NONE : l.result == FC_LOAD_SUCCESS;
}

/* Rule 12: a unit the runtime registers, and whether it is usable, beside the counts. */
static void count_registered(fc_verdict *v, const fc_container *c, fc_load l, fc_link k)
{
    if (fc_container_kept_as_data(c))
        return;
    v->registered_units++;
    if (l.result == FC_LOAD_LINK_INPUT)
        v->registered_linkable += unit_usable(l, k);
    else
        v->registered_loading += unit_usable(l, k);
}

/* Rule: the CUresult that the prediction stands for (modules only: a link input is no claim
 * about cuModuleLoadData). */
static bool probe_agrees(int code, fc_load predicted, const fc_container *c)
{
    switch (predicted.result) {
    case FC_LOAD_SUCCESS: return code == 0;
    case FC_LOAD_NO_BINARY: return code == 209;
    case FC_LOAD_UNSUPPORTED_PTX: return code == 222;
    case FC_LOAD_JIT_DISABLED: return code == 223;
    case FC_LOAD_INVALID_PTX: return code == 218;
    case FC_LOAD_RELOCATABLE: return code == 200 || code == 500;
    case FC_LOAD_INVALID_IMAGE: return code == 200;
    case FC_LOAD_INVALID_SOURCE: return code == 300;
    case FC_LOAD_UNCOMPRESS_FAILED:
        return code == (c->entries[predicted.entry].compression == FC_COMPRESSION_LZ4 ? 209 : 999);
    case FC_LOAD_LINK_INPUT: break;
    case FC_LOAD_EMPTY: break;
    case FC_LOAD_UNSUPPORTED_COMPRESSION: return code == 200 || code == 209; /* not seen yet */
    case FC_LOAD_TOOLKIT_TOO_NEW: return code != 0; /* no such driver tried: any failure */
    }
    return false;
}

/* Rule: a library with both sections registers .nv_fatbin; its __nv_relfatbin holds link
 * inputs that are never loaded (cuobjdump lists only .nv_fatbin then too). Without a section
 * table, the device link step's output stands for .nv_fatbin, and the -rdc objects its
 * records show (fc_container.rdc_object) for __nv_relfatbin. */
static void mark_unused_link_inputs(fc_judgement *j, const fc_object *obj)
{
    bool has_fatbin = false;
    for (size_t c = 0; c < obj->n_containers && !has_fatbin; c++)
        has_fatbin = obj->containers[c].device_link ||
                     (obj->containers[c].section && fc_section_is_fatbin(obj->containers[c].section));
    for (size_t c = 0; c < obj->n_containers; c++)
        j->unused[c] = has_fatbin && fc_container_is_rdc_object(&obj->containers[c]);
}

/* Rule: a file's PTX needs a driver for the newest PTX ISA among it (rule 3). */
static void find_ptx_need(fc_judgement *j, const fc_object *obj)
{
    fc_ptx_need *p = &j->ptx;
    for (size_t c = 0; c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        for (size_t e = 0; e < ct->n_entries; e++) {
            const fc_entry *en = &ct->entries[e];
            if (en->kind == FC_IMAGE_PTX &&
                (en->version_major > p->isa_major ||
                 (en->version_major == p->isa_major && en->version_minor > p->isa_minor))) {
                p->isa_major = en->version_major;
                p->isa_minor = en->version_minor;
            }
        }
    }
    p->cuda = fc_ptx_isa_cuda_version(p->isa_major, p->isa_minor);
    p->min_driver = p->cuda && !fc_object_is_windows(obj) ? fc_cuda_min_driver(p->cuda) : NULL;
}

/* Loads container C on every probed target, and compares the driver's answer. */
static void probe_container(fc_judgement *j, const fc_object *obj, size_t c)
{
    const fc_judge_options *o = j->opts;
    const fc_container *ct = &obj->containers[c];
    for (size_t t = 0; t < j->n_targets; t++) {
        fc_probe_result *pr = &j->probes[c * j->n_targets + t];
        pr->code = -3;
        if (o->device[t] < 0 || !obj->image)
            continue;
        bool crashed = false;
        int code = -1;
        if (fc_prober_load(&code, &crashed, o->prober,
                           (unsigned)o->device[t], (const uint8_t *)obj->image + ct->offset, (size_t)ct->size) != FC_OK)
            continue;
        pr->code = crashed ? -1 : code;
        /* What the driver says of a link input is shown, never compared: fatcheck claims
         * nothing about loading it as a module. */
        fc_load l = j->loads[c * j->n_targets + t];
        pr->compared = l.result != FC_LOAD_LINK_INPUT && l.result != FC_LOAD_EMPTY;
        if (!pr->compared)
            continue;
        pr->agrees = !crashed && probe_agrees(code, l, ct);
        j->probe_totals.compared++;
        j->probe_totals.crashes += crashed;
        j->probe_totals.disagreements += !pr->agrees;
    }
}

/* Rule: the arch list's images, each looked for in every container not kept as data; and the
 * cubins and PTX those containers hold that the list does not build. */
static void check_arch_list(fc_judgement *j, const fc_object *obj, const fc_arch_list *list)
{
    size_t n = 0;
    for (size_t i = 0; i < list->n && n + 2 <= FC_ARCH_EXPECTED_MAX; i++) {
        const fc_arch_entry *a = &list->entries[i];
        j->expected[n++] = (fc_arch_expectation){FC_IMAGE_CUBIN, a->cc, a->arch_specific, 0};
        if (a->ptx)
            j->expected[n++] = (fc_arch_expectation){FC_IMAGE_PTX, a->cc, a->arch_specific, 0};
    }
    size_t n_unexpected = 0;
    for (size_t c = 0; c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        if (fc_container_kept_as_data(ct) || !ct->n_entries || j->idle[c]) /* nothing in an empty one, */
            continue;                                                      /* nor in one that defines nothing */
        for (size_t k = 0; k < n; k++) {
            fc_arch_expectation *x = &j->expected[k];
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
            for (size_t k = 0; k < n && !wanted; k++)
                wanted = j->expected[k].kind == en->kind && j->expected[k].cc == en->arch &&
                         j->expected[k].arch_specific == (en->variant == FC_VARIANT_ARCH_SPECIFIC);
            if (wanted)
                continue;
            char name[16];
            fc_entry_arch_name(name, sizeof name, en);
            bool seen = false;
            for (size_t u = 0; u < n_unexpected && !seen; u++)
                seen = strcmp(j->unexpected[u], name) == 0;
            if (!seen && n_unexpected < FC_ARCH_UNEXPECTED_MAX) {
                snprintf(j->unexpected[n_unexpected], sizeof j->unexpected[0], "%s", name);
                j->unexpected_names[n_unexpected] = j->unexpected[n_unexpected];
                n_unexpected++;
            }
        }
    }
    /* A file with no CUDA code at all cannot hold what a non-empty list builds: the build that
     * this option exists to catch fell back to CPU only (review 2, R7); nor can one whose
     * registered containers are all empty or define nothing. Files kept only as data by a
     * library are not judged by the list. */
    bool registers = false;
    for (size_t c = 0; c < obj->n_containers && !registers; c++)
        registers = !fc_container_kept_as_data(&obj->containers[c]);
    bool no_code = !obj->registered_undecoded && !j->registered && (!obj->n_containers || registers);
    for (size_t k = 0; no_code && k < n; k++)
        j->expected[k].lacking = 1;
    bool matches = n_unexpected == 0 && j->registered > 0;
    for (size_t k = 0; k < n; k++)
        matches &= j->expected[k].lacking == 0;
    j->arch = (fc_arch_check){j->expected, n, j->unexpected_names, n_unexpected, matches, no_code};
    j->have_arch = true;
}

/* Rule: a container image needs what its own CUDA runtimes need: the oldest driver that starts
 * one of them (a program that uses another names it, and is judged by it). */
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

/* Whether the file holds -rdc objects (__nv_relfatbin), whose registration makes the runtime
 * register the device link step's container too. */
static bool has_relfatbin(const fc_object *obj)
{
    for (size_t c = 0; c < obj->n_containers; c++)
        if (fc_container_is_rdc_object(&obj->containers[c]))
            return true;
    return false;
}

/* Rule: a container without entries holds no kernel, so nothing launched can fail from it; it
 * is not a module. nvcc 13 writes one in every PTX-only build: its device link step
 * (nvlink --register-link-binaries, then fatbinary -link) finds no cubin to make and leaves
 * a 16-byte fat binary in .nv_fatbin, whose registration record crt/link.stub only hands to
 * __cudaRegisterFatBinary when -rdc objects were linked (NUM_PRELINKED_OBJECTS > 0); without
 * them the object has no constructor and the runtime never sees it. With -rdc objects (the
 * file has __nv_relfatbin) the runtime does register it, and what it does with the objects
 * then was not checked: it is still counted as a module that fails there. A damaged container
 * decoded without entries is never taken for an empty one. */
static bool empty_is_no_module(const fc_container *ct, bool relfatbin)
{
    /* Exactly a header that declares no entries: a container cut short or damaged before its
     * first entry (also without entries here) is registered code that fails. */
    if (ct->n_entries || ct->size != FC_CONTAINER_HEADER || ct->role == FC_ROLE_LINK_INPUT)
        return false;
    return !relfatbin;
}

/* Rule: a registered container whose cubins define nothing (no function, no variable) gives
 * a program nothing to launch or reach, whether it loads or not: it is not counted as a
 * module. The device link step above leaves one with code=sm_XX (a 1,448-byte sm_80 cubin),
 * and CUDA 11.8's libraries hold dozens. Its load is still predicted as the driver would
 * answer (the oracle compares it); only the verdict leaves it out (review 8, C1: every
 * "sm_80 plus PTX" build was partial on newer GPUs, failing --strict). As with empty ones,
 * not where the file holds -rdc objects. So too of one the segment search found (no section
 * table or record shows it; judged as registered): stripped CUDA 13.0 libcufftw.so.12 was
 * `none` where the whole file has no kernel to launch. */
static bool defines_nothing(const fc_judgement *j, const fc_object *obj, const fc_container *ct,
                            const fc_options *scan, bool inflate)
{
    return ct->role != FC_ROLE_LINK_INPUT && (fc_origin_registered(ct->origin) || ct->origin == FC_ORIGIN_SEGMENT) &&
           !fc_container_kept_as_data(ct) && !j->relfatbin && fc_container_defines_nothing(obj, ct, scan, inflate);
}

/* Rule: PTX is compiled as its text says, not as its entry header says: the JIT takes .version
 * and .target from the text, and fails a module without them. fatbinary stores the sm= it is
 * given whatever the text's .target (review of 2026-12-03, F1): compute_90 PTX whose text
 * says .target sm_100 failed on the H200 with CUDA_ERROR_INVALID_PTX (218, "SM version
 * specified by .target is higher than default SM version assumed"), and text saying .version
 * 9.1 under a header saying 9.0 with CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222, F2). Looked at
 * where rule 6 read the text whole (MEMO). */
static fc_load ptx_as_its_text_says(const fc_container *c, const fc_target *t, fc_load l, const fc_ptx_memo *m)
{
    if (l.result != FC_LOAD_SUCCESS || l.via != FC_VIA_JIT || l.entry < 0 || (size_t)l.entry >= c->n_entries ||
        m->entry != &c->entries[l.entry] || !m->whole)
        return l;
    fc_load invalid = {FC_LOAD_INVALID_PTX, FC_VIA_JIT, l.entry, true};
    /* Compressed bytes that do not inflate: the driver's "Uncompress failed" (CUDA_ERROR_UNKNOWN,
     * H200; review of 2026-12-03, F4), where they were counted as loading. */
    if (!m->readable)
        return m->why == FC_ERR_FORMAT ? (fc_load){FC_LOAD_UNCOMPRESS_FAILED, FC_VIA_JIT, l.entry, true} : l;
    const ptx_facts *f = &m->facts;
    if (!f->headed || !f->target_arch)
        return invalid; /* "Missing .version directive", or no architecture to compile for */
    int needs = fc_ptx_isa_cuda_version(f->isa_major, f->isa_minor);
    if (t->driver_cuda && (needs ? needs > t->driver_cuda : f->isa_major >= 6))
        return (fc_load){FC_LOAD_UNSUPPORTED_PTX, FC_VIA_NONE, l.entry, false};
    /* "32-Bit compilation is no longer supported" (ptxas 13.0); 218 on the H200's 580 driver.
     * Older drivers were not asked: they are left to take it. */
    if (f->address_32 && (!t->driver_cuda || t->driver_cuda >= 13000))
        return invalid;
    /* ".target sm_90, debug" without a .debug_ section: ptxas 13.0 "Debug information not found
     * in presence of .target debug" (any one .debug_ section satisfies it); 218 on the H200's
     * 580 driver (red-team review of 2026-12-03). nvcc -G writes both. */
    if (f->debug_target && !f->debug_info)
        return invalid;
    unsigned min = fc_ptx_target_min_isa(f->target_arch, f->target_variant);
    if (!fc_ptx_jits_for(f->target_arch, f->target_variant, t->cc) ||
        (min && f->isa_major * 10u + f->isa_minor < min))
        return invalid;
    return l;
}

/* Rule 3: where the driver might choose another image than the predicted one, by an order
 * never seen on a driver (fc_load_alternatives: f images, a ones beyond 9.0), L stands only if
 * every such image loads too; else the first that fails is the answer (a gate must not open
 * where the driver may fail). Normal builds, every image good, are left as they were. */
static fc_load unseen_order(const fc_object *obj, const fc_container *ct, const fc_target *tg,
                            const fc_jit_policy *p, fc_load l, bool inflate, const fc_options *scan, bool *replaced)
{
    int alt[16];
    if (l.result != FC_LOAD_SUCCESS)
        return l;
    size_t n = fc_load_alternatives(ct, tg, l.entry, alt, sizeof alt / sizeof *alt);
    for (size_t i = 0; i < n; i++) {
        fc_ptx_memo memo = {0};
        fc_load a = fc_refine_load_for(obj, ct, fc_load_of_entry(ct, tg, p, alt[i]), tg->driver_cuda, inflate, scan, &memo);
        a = ptx_as_its_text_says(ct, tg, a, &memo);
        if (a.result != FC_LOAD_SUCCESS && a.result != FC_LOAD_LINK_INPUT) {
            *replaced = true;
            return a;
        }
    }
    return l;
}

fc_load fc_refine_load_on(const fc_object *obj, const fc_container *c, fc_load l, const fc_target *t,
                          const fc_options *opts)
{
    if (!obj || !c || !t)
        return l;
    fc_ptx_memo memo = {0};
    l = fc_refine_load_for(obj, c, l, t->driver_cuda, false, opts, &memo);
    l = ptx_as_its_text_says(c, t, l, &memo);
    bool replaced = false;
    return unseen_order(obj, c, t, NULL, l, false, opts, &replaced);
}

/* Predicts every container on every target. */
static void predict_all(fc_judgement *j, const fc_object *obj, const fc_options *scan)
{
    const fc_judge_options *o = j->opts;
    size_t nt = j->n_targets;
    for (size_t c = 0; c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        bool empty = j->empty[c] = empty_is_no_module(ct, j->relfatbin);
        j->idle[c] = !empty && defines_nothing(j, obj, ct, scan, false);
        fc_ptx_memo memo = {0};
        for (size_t t = 0; t < nt; t++) {
            const fc_target *tg = &o->targets[t];
            /* A zstd cubin's own SM is read where every image is inflated anyway (the kernel
             * view) and where nothing may go unseen (strict): the driver refuses an sm_80
             * cubin stored as sm_90 (300) whatever its compression. */
            fc_load l = empty ? (fc_load){FC_LOAD_EMPTY, FC_VIA_NONE, -1, false} : fc_predict_load(ct, tg, &o->jit);
            /* Rule 13 is decided from the headers (fc_load_of_entry); what the chosen cubin's
             * bytes say (damaged, another SM, relocatable, not inflating) is the driver's answer
             * before its age, and a cuda-compat libcuda (compat_runs_new_cubins) must not take a
             * damaged cubin for one that loads (review of 2026-12-05, rv9 1 and 5). */
            bool too_new = l.result == FC_LOAD_TOOLKIT_TOO_NEW;
            if (too_new)
                l.result = FC_LOAD_SUCCESS;
            if (!empty)
                l = fc_refine_load_for(obj, ct, l, tg->driver_cuda, o->kernels || o->strict, scan, &memo);
            if (too_new && l.result == FC_LOAD_SUCCESS)
                l.result = FC_LOAD_TOOLKIT_TOO_NEW;
            l = ptx_as_its_text_says(ct, tg, l, &memo);
            l = unseen_order(obj, ct, tg, &o->jit, l, o->kernels || o->strict, scan, &j->unseen[c * nt + t]);
            fc_link k = {FC_LINK_VIA_NONE, -1};
            if (l.result == FC_LOAD_LINK_INPUT) {
                k = fc_predict_link(ct, tg);
                l.entry = k.entry;
            }
            j->loads[c * nt + t] = l;
            j->links[c * nt + t] = k;
        }
        if (j->probes)
            probe_container(j, obj, c);
    }
}

/* Rule 5's exception: whether the CUDA runtime, linking -rdc object C (an unused
 * __nv_relfatbin container) itself, has an image of it for target T: a cubin a link takes, or
 * PTX the target's driver compiles, read as rule 6 reads PTX (fc_rdc_ptx_links: a call into
 * nothing failed with 300, a byte outside ASCII with 218). Not with CUDA_FORCE_PTX_JIT or
 * CUDA_DISABLE_PTX_JIT set, nor from LTO-IR, nor zstd for a driver before CUDA 12.4: no
 * runtime was seen doing so. MEMO keeps the PTX read for C's next target. */
enum { LINK_NO = 0, LINK_YES = 1, LINK_IF_CALLS_RESOLVE = 2 };
static int links_object(const fc_judgement *j, const fc_object *obj, const fc_options *scan, size_t c, size_t t,
                        fc_ptx_memo *memo)
{
    const fc_target *tg = &j->opts->targets[t];
    const fc_container *ct = &obj->containers[c];
    fc_link k = j->links[c * j->n_targets + t];
    if (j->opts->jit.force_ptx_jit || j->opts->jit.disable_ptx_jit || k.entry < 0 || (size_t)k.entry >= ct->n_entries)
        return LINK_NO;
    const fc_entry *e = &ct->entries[k.entry];
    if (e->obfuscated || (e->compression == FC_COMPRESSION_ZSTD && tg->driver_cuda && tg->driver_cuda < 12040) ||
        (tg->driver_cuda && fc_cubin_written_by(obj, e) / 1000 > tg->driver_cuda / 1000)) /* rule 13 (rv9 4, rv12 F3) */
        return LINK_NO;
    if (k.via == FC_LINK_VIA_CUBIN)
        return LINK_YES;
    int needs = fc_ptx_isa_cuda_version(e->version_major, e->version_minor);
    bool calls_out = false;
    if (k.via != FC_LINK_VIA_PTX || !needs || (tg->driver_cuda && needs > tg->driver_cuda) ||
        fc_ptx_isa_predates_target(e) || !fc_rdc_ptx_links(obj, e, scan, tg->driver_cuda, memo, &calls_out))
        return LINK_NO;
    return calls_out ? LINK_IF_CALLS_RESOLVE : LINK_YES;
}

/* The functions an -rdc object's image defines and needs, read once (rdc_calls_resolve). */
typedef struct rdc_functions {
    const fc_entry *entry;
    bool ok;
    fc_names defined, needed;
} rdc_functions;

typedef struct rdc_cache {
    rdc_functions *items;
    size_t n, cap;
} rdc_cache;

static const rdc_functions *functions_of(rdc_cache *cache, const fc_object *obj, const fc_entry *e,
                                         const fc_options *scan)
{
    for (size_t i = 0; i < cache->n; i++)
        if (cache->items[i].entry == e)
            return &cache->items[i];
    rdc_functions *more = fc_grow(cache->items, &cache->cap, cache->n + 1, sizeof *more, 8);
    if (!more) {
        fc_judge_out_of_memory();
        return NULL;
    }
    cache->items = more;
    rdc_functions *f = &cache->items[cache->n++];
    memset(f, 0, sizeof *f);
    f->entry = e;
    f->ok = fc_rdc_functions(obj, e, scan, &f->defined, &f->needed);
    return f;
}

static void cache_free(rdc_cache *cache)
{
    for (size_t i = 0; i < cache->n; i++) {
        fc_names_free(&cache->items[i].defined);
        fc_names_free(&cache->items[i].needed);
    }
    free(cache->items);
}

/* Rule 5: PTX of an -rdc object that calls functions it does not define links only where
 * another object the runtime links for target T defines them (H200, review of 2026-12-02: a
 * kernel calling a function of another object with PTX ran, as did one using dynamic
 * parallelism, whose calls libcudadevrt's objects define; a call into nothing failed with
 * 300). STATE (a row per container, LINK_*) is settled for T: objects that link define what is
 * called; one whose calls some name no such object defines, or whose functions could not be
 * read, does not link, which may leave another's calls unresolved in turn. */
static void rdc_calls_resolve(const fc_judgement *j, const fc_object *obj, const fc_options *scan, size_t t,
                              uint8_t *state, rdc_cache *cache)
{
    size_t nt = j->n_targets;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t c = 0; c < obj->n_containers; c++) {
            if (state[c * nt + t] != LINK_IF_CALLS_RESOLVE)
                continue;
            const rdc_functions *f = functions_of(cache, obj, &obj->containers[c].entries[j->links[c * nt + t].entry], scan);
            bool resolved = f && f->ok;
            for (size_t i = 0; resolved && i < f->needed.n; i++) {
                bool found = false;
                for (size_t d = 0; !found && d < obj->n_containers; d++) {
                    if (d == c || state[d * nt + t] == LINK_NO || !j->unused[d])
                        continue;
                    const rdc_functions *g =
                        functions_of(cache, obj, &obj->containers[d].entries[j->links[d * nt + t].entry], scan);
                    found = g && g->ok && fc_names_has(&g->defined, f->needed.items[i]);
                }
                resolved = found;
            }
            if (!resolved) {
                state[c * nt + t] = LINK_NO;
                changed = true;
            }
        }
    }
}

bool fc_runtime_links_object(const fc_judgement *j, size_t c, size_t t)
{
    return j->rdc_links && j->unused[c] && j->rdc_links[c * j->n_targets + t];
}

/* Of the -rdc objects beside .nv_fatbin (unused __nv_relfatbin containers) that hold code,
 * how many the runtime links for each target and how many it cannot. Whether they hold code
 * is read as of registered containers (HOLDS: 0 not asked, 1 holds code, 2 defines nothing;
 * a function a relocatable cubin only refers to counts as code). */
static bool rdc_objects_count(fc_judgement *j, const fc_object *obj, const fc_options *scan, uint8_t *holds)
{
    size_t with_code = 0, cells = j->n_containers * j->n_targets; /* checked in fc_judge */
    if (!j->relfatbin)
        return true;
    if (cells && !(j->rdc_links = calloc(cells, 1)))
        return false;
    for (size_t c = 0; c < obj->n_containers; c++) {
        if (!j->unused[c])
            continue;
        if (!holds[c])
            holds[c] = fc_images_define_nothing(obj, &obj->containers[c], scan, true) ? 2 : 1;
        if (holds[c] == 2)
            continue;
        with_code++;
        fc_ptx_memo memo = {0};
        for (size_t t = 0; t < j->n_targets; t++)
            j->rdc_links[c * j->n_targets + t] = (uint8_t)links_object(j, obj, scan, c, t, &memo);
    }
    rdc_cache cache = {0};
    for (size_t t = 0; t < j->n_targets; t++) {
        rdc_calls_resolve(j, obj, scan, t, j->rdc_links, &cache);
        for (size_t c = 0; c < obj->n_containers; c++) {
            if (!j->unused[c] || holds[c] != 1)
                continue;
            bool linked = j->rdc_links[c * j->n_targets + t] != LINK_NO;
            j->rdc_links[c * j->n_targets + t] = linked;
            j->rdc_linkable[t] += linked;
            j->rdc_unlinkable[t] += !linked;
        }
    }
    cache_free(&cache);
    /* Rule 10 then holds for the device link step's output: linked from objects that hold no
     * code, and itself defining nothing, it is no module (a translation unit without kernels
     * built -rdc: fixtures/rules/libkept_rdc.so). */
    for (size_t c = 0; !with_code && c < obj->n_containers; c++)
        if (obj->containers[c].device_link && !j->empty[c] && !j->idle[c] && fc_origin_registered(obj->containers[c].origin))
            j->idle[c] = fc_images_define_nothing(obj, &obj->containers[c], scan, true);
    return true;
}

/* Rule 5's exception: the device link step's output (a version-2 registration record leads to
 * it) that cannot load on T is not the end where the file holds -rdc objects: the runtime then
 * links them itself (H200, driver 580.159.04: the runtimes of CUDA 11.8 and 13.0, shared and
 * static, ran the kernel of such a library built code=[sm_80,compute_80] on sm_90, and failed
 * that of one built code=sm_80 with error 500). It loads when every object that holds code has
 * an image that link takes (fc_runtime_links_object); where one has none, its kernels fail
 * (with two objects, one with PTX and one without, the first's kernel ran and the second's
 * failed), and the module counts as failing, as the driver answers. Only an output with no
 * image for T (CUDA_ERROR_NO_BINARY_FOR_GPU) is made up for so: one whose sm_90 cubin was
 * damaged failed with error 200 on sm_90 though its objects had PTX (review, H200). */
bool fc_device_link_fails(const fc_judgement *j, const fc_container *ct, size_t c, size_t t)
{
    fc_load l = j->loads[c * j->n_targets + t];
    return ct->device_link && j->relfatbin && !j->unused[c] && !j->empty[c] && !j->idle[c] &&
           l.result == FC_LOAD_NO_BINARY;
}

bool fc_runtime_links_instead(const fc_judgement *j, const fc_container *ct, size_t c, size_t t)
{
    return fc_device_link_fails(j, ct, c, t) && j->rdc_unlinkable[t] == 0;
}

/* Counts the predictions into each target's verdict. */
static void count_all(fc_judgement *j, const fc_object *obj)
{
    size_t nt = j->n_targets;
    for (size_t c = 0; c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        bool empty = j->empty[c], idle = j->idle[c];
        j->registered += !fc_container_kept_as_data(ct) && !empty && !idle;
        for (size_t t = 0; t < nt; t++) {
            fc_load l = j->loads[c * nt + t];
            fc_link k = j->links[c * nt + t];
            fc_verdict *v = &j->verdicts[t];
            bool runtime_link = fc_runtime_links_instead(j, ct, c, t);
            if (j->unused[c])
                v->unused_link_inputs++;
            else if (empty)
                v->empty++;
            else if (idle)
                v->defines_nothing++;
            else if (runtime_link)
                v->modules++, v->runtime_linked++;
            else if (l.result == FC_LOAD_LINK_INPUT)
                count_link(v, k);
            else
                count_load(v, obj, ct, l), v->unseen_order += j->unseen[c * nt + t];
            if (runtime_link && !fc_container_kept_as_data(ct))
                v->registered_units++, v->registered_loading++;
            else if (!j->unused[c] && !empty && !idle)
                count_registered(v, ct, l, k);
        }
    }
}

/* Whether -rdc object C defines a kernel (a __global__ function: a cubin's STO_CUDA_ENTRY
 * symbol, PTX's .entry), read once from its image for target T. An object that cannot be read
 * counts as defining one, as before this was asked. */
static bool rdc_object_has_kernel(fc_judgement *j, const fc_object *obj, const fc_options *scan, size_t c, size_t t)
{
    if (!j->rdc_kernels && !(j->rdc_kernels = calloc(j->n_containers ? j->n_containers : 1, 1))) {
        fc_judge_out_of_memory(); /* "none" turned "partial" (oom22) */
        return true;
    }
    if (!j->rdc_kernels[c]) {
        const fc_container *ct = &obj->containers[c];
        fc_link k = j->links[c * j->n_targets + t];
        fc_kernel_list *l = NULL;
        uint8_t state = 1;
        fc_status listed = k.entry >= 0 && (size_t)k.entry < ct->n_entries
                               ? fc_entry_kernels(&l, obj, &ct->entries[k.entry], scan) : FC_ERR_FORMAT;
        if (listed == FC_ERR_NOMEM)
            fc_judge_out_of_memory();
        if (listed == FC_OK) {
            state = 2;
            for (size_t i = 0; i < l->n && state == 2; i++)
                if (l->items[i].entry)
                    state = 1;
        }
        fc_kernel_list_free(l);
        j->rdc_kernels[c] = state;
    }
    return j->rdc_kernels[c] == 1;
}

/* Rule 12 where the file holds -rdc objects: where the image the device link step made does
 * not fit, the runtime links the __nv_relfatbin objects itself (rule 5), so registered code
 * counts as failing only when none of those that hold code has an image that link takes for
 * target T (rdc_objects_count); a file whose -rdc objects hold none, or whose __nv_relfatbin
 * is all it has, is not judged by the rule. Objects that link but define no kernel do not
 * count: libcudadevrt's (dynamic parallelism) and any other of device functions alone give
 * the runtime nothing to launch while the objects with kernels cannot link
 * (fixtures/rules/libkept_rdc_devfn.so: `partial`, exit 0, on sm_90, where its kernel's object
 * is sm_100 alone and only its device function's has sm_90). *UNLINKABLE gets how many that
 * hold code cannot link. */
static bool runtime_may_link(fc_judgement *j, const fc_object *obj, const fc_options *scan, size_t t,
                             size_t *unlinkable)
{
    *unlinkable = j->rdc_unlinkable[t];
    if (!*unlinkable)
        return true;
    for (size_t c = 0; c < obj->n_containers && j->rdc_linkable[t]; c++)
        if (fc_runtime_links_object(j, c, t) && rdc_object_has_kernel(j, obj, scan, c, t)) {
            *unlinkable = 0;
            return true;
        }
    return false;
}

/* Rule 12: whether target T's registered code all fails while code the file keeps is usable
 * there, so that every kernel launched through the runtime fails; *FAILING gets how many
 * registered units that hold code (all failing) there are. Registered containers count only
 * when they may hold code: small ones are inflated and read to see whether they define
 * nothing (CUDA 12.4's and 13.0's cuFFT register only a compressed cubin without a symbol and
 * keep their kernels in .ldata; a translation unit without kernels built -arch=compute_80
 * registers PTX that declares nothing), here only, each container once (HOLDS: 0 not asked,
 * 1 holds code, 2 defines nothing): most libraries hold a thousand small compressed cubins
 * (cuBLASLt 13.0: 1,024 under 3 KiB), and the counts stay as the other rules made them,
 * whatever targets are judged beside. Where the file holds -rdc objects, only when none of
 * them that holds code has an image a link for the target could take (runtime_may_link). */
static bool registered_all_fail(fc_judgement *j, const fc_object *obj, const fc_options *scan, size_t t,
                                uint8_t *holds, size_t *failing, size_t *rdc_unlinkable)
{
    const fc_verdict *v = &j->verdicts[t];
    size_t usable = v->native + v->compatible + v->jit + v->runtime_linked + v->linkable;
    size_t registered_usable = v->registered_loading + v->registered_linkable;
    *failing = *rdc_unlinkable = 0;
    if (!v->registered_units || usable == registered_usable || registered_usable == v->registered_units)
        return false; /* nothing kept is usable, or every registered unit is */
    if (j->relfatbin && runtime_may_link(j, obj, scan, t, rdc_unlinkable))
        return false;
    size_t nt = j->n_targets;
    for (size_t pass = 0; pass < 2; pass++) /* first whether a usable one holds code: cheaper */
        for (size_t c = 0; c < obj->n_containers; c++) {
            const fc_container *ct = &obj->containers[c];
            if (fc_container_kept_as_data(ct) || j->unused[c] || j->idle[c] || j->empty[c])
                continue;
            bool ok = unit_usable(j->loads[c * nt + t], j->links[c * nt + t]);
            if (ok != (pass == 0))
                continue;
            if (!holds[c])
                holds[c] = defines_nothing(j, obj, ct, scan, true) ? 2 : 1;
            if (holds[c] == 1 && ok)
                return false;
            *failing += holds[c] == 1;
        }
    *failing += obj->registered_undecoded; /* what it held is unknown */
    return *failing > 0;
}

/* Rule 13 where an image's cuda-compat libcuda (rule 7's exception) may be the driver the
 * container uses, on some GPUs and driver branches (oci_require.c): that user-mode driver is
 * CUDA 13's, and runs what CUDA 13's toolchain built; the host's older one is not asked. */
static void compat_runs_new_cubins(fc_judgement *j, const fc_object *obj, const fc_judge_options *o, int *undone)
{
    if (!obj->in_image || !j->loads)
        return;
    /* The compat libcuda must be of the cubin's CUDA major at the least: 13.0 for CUDA 13's
     * cubins, 12.0 for CUDA 12's on a driver before 12.0 (rv12 F8) */
    for (size_t t = 0; t < j->n_targets; t++) {
        char why[320];
        for (size_t c = 0; c < obj->n_containers; c++) {
            fc_load *l = &j->loads[c * j->n_targets + t];
            if (l->result != FC_LOAD_TOOLKIT_TOO_NEW || l->entry < 0 ||
                (size_t)l->entry >= obj->containers[c].n_entries)
                continue;
            int built = fc_cubin_written_by(obj, &obj->containers[c].entries[l->entry]) / 1000 * 1000;
            if (fc_oci_compat_could_start(obj->in_image->image, built, &o->targets[t], why, sizeof why)) {
                l->result = FC_LOAD_SUCCESS;
                if (built > undone[t])
                    undone[t] = built;
            }
        }
    }
}

static _Thread_local bool judge_out_of_memory;

void fc_judge_out_of_memory(void)
{
    judge_out_of_memory = true;
}

fc_status fc_judge(fc_judgement **out, const fc_object *obj, const fc_judge_options *o)
{
    if (!out || !obj || !o)
        return FC_ERR_INVALID;
    *out = NULL;
    judge_out_of_memory = false;
    fc_judgement *j = calloc(1, sizeof *j);
    if (!j)
        return FC_ERR_NOMEM;
    fc_options defaults;
    const fc_options *scan = fc_options_resolve(o->scan, &defaults);
    if (!scan) {
        free(j);
        return FC_ERR_INVALID;
    }
    j->opts = o;
    j->n_containers = obj->n_containers;
    j->n_targets = o->n_targets;
    size_t cells = 0;
    j->unused = calloc(obj->n_containers ? obj->n_containers : 1, sizeof *j->unused);
    j->idle = calloc(obj->n_containers ? obj->n_containers : 1, sizeof *j->idle);
    j->empty = calloc(obj->n_containers ? obj->n_containers : 1, sizeof *j->empty);
    if (!j->unused || !j->idle || !j->empty || !fc_mul_ok(obj->n_containers, j->n_targets, &cells))
        goto nomem;
    if (cells) {
        j->loads = calloc(cells, sizeof *j->loads);
        j->links = calloc(cells, sizeof *j->links);
        j->unseen = calloc(cells, sizeof *j->unseen);
        if (o->prober)
            j->probes = calloc(cells, sizeof *j->probes);
        if (!j->loads || !j->links || !j->unseen || (o->prober && !j->probes))
            goto nomem;
    }
    if (o->prober)
        j->probed = true;
    j->relfatbin = has_relfatbin(obj); /* once: asked of every container (200,000 empty ones took 35 s) */
    mark_unused_link_inputs(j, obj);
    find_ptx_need(j, obj);
    predict_all(j, obj, scan);
    uint8_t *holds = calloc(obj->n_containers ? obj->n_containers : 1, 1);
    if (!holds)
        goto nomem;
    if (!rdc_objects_count(j, obj, scan, holds)) {
        free(holds);
        goto nomem;
    }
    int *compat13 = calloc(j->n_targets ? j->n_targets : 1, sizeof *compat13); /* the CUDA it ran cubins of */
    if (!compat13) {
        free(holds);
        goto nomem;
    }
    compat_runs_new_cubins(j, obj, o, compat13);
    count_all(j, obj);
    fc_object_runtime(&j->runtime, obj, scan);
    if (obj->format == FC_FORMAT_IMAGE)
        image_runtime(obj->in_image->image, &j->runtime);
    for (size_t t = 0; t < j->n_targets; t++) {
        fc_verdict *v = &j->verdicts[t];
        v->runtime_fails = !fc_runtime_starts(&j->runtime, o->targets[t].driver_cuda);
        /* Rule: a driver older than the GPU knows no such GPU (a name or an inventory can say so;
         * a detected pair cannot). */
        int first = fc_cc_first_cuda(o->targets[t].cc);
        if (o->targets[t].driver_cuda && first > o->targets[t].driver_cuda)
            v->gpu_needs_cuda = first;
        /* ... and a driver newer than the GPU's last branch no longer knows it (a Tesla K80
         * with a CUDA 12.4 driver was judged as any other: ok, exit 0). */
        int last = fc_cc_last_cuda(o->targets[t].cc, NULL);
        if (o->targets[t].driver_cuda && last && o->targets[t].driver_cuda > last)
            v->gpu_last_cuda = last;
        v->unlinked = obj->device_link_missing;
        /* Rule: registered code that could not be decoded fails to load, whatever it held. */
        if (obj->registered_undecoded) {
            v->modules++;
            v->undecoded++;
            v->registered_units++;
        }
        if (obj->in_image)
            v->container = fc_oci_requirements_check(obj->in_image->image, &o->targets[t], v->container_why,
                                                     sizeof v->container_why);
        /* Rule 7's exception: the image's cuda-compat libcuda, on some GPUs (oci_require.c). */
        char compat_why[sizeof v->container_why];
        /* The same where only the cubins needed it (rule 13): whether the container gets the
         * compat libcuda depends on the GPU, said as for the runtime, not a plain start (a
         * GeForce was "ok": review of 2026-12-05, rv9 2). */
        if (compat13[t] && (v->container == FC_REQUIRE_MET || v->container == FC_REQUIRE_UNKNOWN) &&
            fc_oci_compat_could_start(obj->in_image->image, compat13[t], &o->targets[t], compat_why, sizeof compat_why)) {
            if (v->container == FC_REQUIRE_MET)
                memcpy(v->container_why, compat_why, sizeof compat_why);
            v->container = FC_REQUIRE_UNKNOWN;
        }
        if (obj->in_image && v->runtime_fails && (v->container == FC_REQUIRE_MET || v->container == FC_REQUIRE_UNKNOWN) &&
            fc_oci_compat_could_start(obj->in_image->image, j->runtime.cuda, &o->targets[t], compat_why, sizeof compat_why)) {
            v->runtime_fails = false;
            if (v->container == FC_REQUIRE_MET)
                memcpy(v->container_why, compat_why, sizeof compat_why);
            v->container = FC_REQUIRE_UNKNOWN;
        }
        size_t failing, rdc_unlinkable;
        bool all_fail = registered_all_fail(j, obj, scan, t, holds, &failing, &rdc_unlinkable);
        finish_verdict(v, all_fail);
        if (v->registered_all_fail) {
            v->registered_failing = failing;
            v->rdc_unlinkable = rdc_unlinkable;
        }
    }
    free(holds);
    free(compat13);
    /* Not a file found for its runtime alone: a walk does not judge files without CUDA code by
     * the list (its "missing every image" beside a runtime that cannot start misled). */
    if (o->arch_list && !obj->runtime_only)
        check_arch_list(j, obj, o->arch_list);
    if (o->kernels && fc_missing_kernels_find(j, obj, scan) != FC_OK)
        goto nomem;
    if (judge_out_of_memory)
        goto nomem;
    *out = j;
    return FC_OK;
nomem:
    fc_judgement_free(j);
    return FC_ERR_NOMEM;
}

void fc_judgement_free(fc_judgement *j)
{
    if (!j)
        return;
    fc_missing_kernels_free(j);
    free(j->loads);
    free(j->links);
    free(j->unseen);
    free(j->unused);
    free(j->idle);
    free(j->empty);
    free(j->probes);
    free(j->rdc_links);
    free(j->rdc_kernels);
    free(j);
}

fc_load fc_judgement_load(const fc_judgement *j, size_t c, size_t t)
{
    if (!j || !j->loads || c >= j->n_containers || t >= j->n_targets)
        return (fc_load){FC_LOAD_NO_BINARY, FC_VIA_NONE, -1, false};
    return j->loads[c * j->n_targets + t];
}

fc_link fc_judgement_link(const fc_judgement *j, size_t c, size_t t)
{
    if (!j || !j->links || c >= j->n_containers || t >= j->n_targets)
        return (fc_link){FC_LINK_VIA_NONE, -1};
    return j->links[c * j->n_targets + t];
}

bool fc_judgement_unused(const fc_judgement *j, size_t c)
{
    return j && c < j->n_containers && j->unused[c];
}

bool fc_judgement_defines_nothing(const fc_judgement *j, size_t c)
{
    return j && c < j->n_containers && j->idle[c];
}

const fc_probe_result *fc_judgement_probe(const fc_judgement *j, size_t c, size_t t)
{
    if (!j || !j->probes || c >= j->n_containers || t >= j->n_targets)
        return NULL;
    return &j->probes[c * j->n_targets + t];
}

const fc_probe_totals *fc_judgement_probe_totals(const fc_judgement *j)
{
    return j && j->probed ? &j->probe_totals : NULL;
}

const fc_verdict *fc_judgement_verdict(const fc_judgement *j, size_t t)
{
    return j && t < j->n_targets ? &j->verdicts[t] : NULL;
}

size_t fc_judgement_registered(const fc_judgement *j)
{
    return j ? j->registered : 0;
}

const fc_runtime_need *fc_judgement_runtime(const fc_judgement *j)
{
    return j ? &j->runtime : NULL;
}

const fc_ptx_need *fc_judgement_ptx(const fc_judgement *j)
{
    return j ? &j->ptx : NULL;
}

const fc_arch_check *fc_judgement_arch_check(const fc_judgement *j)
{
    return j && j->have_arch ? &j->arch : NULL;
}

/* What the report's notes say was not seen or judged. A file with containers whose data sections
 * were searched in part is not counted: its registered code was read whole, and the default
 * finds all that --embedded finds on CUDA's libraries (README); failing it would fail every
 * large CUDA library under --strict. */
unsigned fc_object_unseen(const fc_object *obj, const fc_judgement *j)
{
    unsigned u = 0;
    if (obj && !obj->n_containers && obj->sections_searched_in_part)
        u |= FC_UNSEEN_PARTS;
    if (obj && obj->appended_size)
        u |= FC_UNSEEN_APPENDED;
    for (size_t t = 0; j && t < j->n_targets; t++) {
        /* A runtime whose CUDA release nothing tells, or one dated only by its device code
         * (at least that release, maybe newer) on a driver at or above it: the report says
         * for both that whether the driver starts it is not judged. */
        if (j->opts->targets[t].driver_cuda && !j->runtime.cuda &&
            (j->runtime.kind == FC_RUNTIME_STATIC || j->runtime.kind == FC_RUNTIME_UNKNOWN))
            u |= FC_UNSEEN_RUNTIME;
        else if (j->opts->targets[t].driver_cuda && j->runtime.floor_only && !j->verdicts[t].runtime_fails)
            u |= FC_UNSEEN_RUNTIME;
        if (j->verdicts[t].container == FC_REQUIRE_UNKNOWN)
            u |= FC_UNSEEN_CONTAINER;
    }
    return u;
}

bool fc_judgement_shows(const fc_judgement *j, const fc_object *obj)
{
    if (!obj || !obj->runtime_only)
        return true;
    return (fc_judgement_problems(j, obj) & (FC_PROBLEM_LOAD | FC_PROBLEM_UNSEEN)) != 0;
}

/* Rule: what fails a check. A judgement that could not be made leaves only the object's own
 * decoding error. */
unsigned fc_judgement_problems(const fc_judgement *j, const fc_object *obj)
{
    unsigned p = obj && obj->error ? FC_PROBLEM_INPUT : 0;
    if (!j)
        return p;
    if (j->opts->strict && fc_object_unseen(obj, j))
        p |= FC_PROBLEM_UNSEEN;
    for (size_t t = 0; t < j->n_targets; t++) {
        fc_verdict_status s = j->verdicts[t].status;
        if (s == FC_VERDICT_NONE || (j->opts->strict && s == FC_VERDICT_PARTIAL))
            p |= FC_PROBLEM_LOAD;
    }
    if (j->have_arch && (j->registered || j->arch.no_code) && !j->arch.matches)
        p |= FC_PROBLEM_ARCH_LIST;
    return p;
}
