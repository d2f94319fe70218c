/* json_report.c - the --json document, written as objects arrive, for every front end (the
 * command's --json, the Python package). Schema: docs/json.md. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "json_report.h"
#include "json_writer.h"

struct json_report {
    jw w;                  /* the document goes through here */
    char buf[1 << 16];
    const config *cfg;
    size_t files;
    struct message {
        char *path, *message;
    } *errors, *warnings;  /* written at the end */
    size_t n_errors, cap_errors, n_warnings, cap_warnings;
};

static void json_kernels(jw *out, const fc_entry *e, const fc_kernel_list *kl, fc_status st)
{
    if (!kl) {
        if (e->kind == FC_IMAGE_CUBIN || e->kind == FC_IMAGE_PTX)
            jw_field_string(out, ",\"kernels_error\":", fc_status_name(st));
        return;
    }
    if (kl->arch_mismatch)
        jw_printf(out, ",\"elf_arch\":\"sm_%u\"", kl->elf_arch);
    jw_puts(out, ",\"kernels\":[");
    for (size_t k = 0; k < kl->n; k++) {
        const fc_kernel *kn = &kl->items[k];
        jw_field_string(out, k ? ",{\"name\":" : "{\"name\":", kn->name);
        jw_field_string(out, ",\"demangled\":", kn->demangled);
        jw_puts(out, kn->entry ? ",\"entry\":true" : ",\"entry\":false");
        if (kn->registers >= 0)
            jw_field_u64(out, ",\"registers\":", (uint64_t)kn->registers);
        if (kn->shared_bytes >= 0)
            jw_field_u64(out, ",\"shared_bytes\":", (uint64_t)kn->shared_bytes);
        jw_puts(out, "}");
    }
    jw_puts(out, "]");
}

static void json_entry(jw *out, const fc_entry *e, const fc_kernel_list *kl, fc_status kst, bool kernels)
{
    char arch[32];
    jw_field_string(out, "{\"kind\":", fc_image_kind_name(e->kind));
    jw_field_string(out, ",\"arch\":", fc_entry_arch_name(arch, sizeof arch, e));
    if (e->kind == FC_IMAGE_PTX || (e->kind == FC_IMAGE_CUBIN && (e->version_major || e->version_minor))) {
        jw_field_u64(out, e->kind == FC_IMAGE_PTX ? ",\"ptx_isa\":\"" : ",\"code_version\":\"", e->version_major);
        jw_putc(out, '.');
        jw_u64(out, e->version_minor);
        jw_putc(out, '"');
    }
    jw_field_string(out, ",\"compression\":", fc_compression_name(e->compression));
    /* Numbers by hand: this is the loop that writes most of a large document. */
    jw_field_u64(out, ",\"size\":", e->stored_size);
    jw_field_u64(out, ",\"uncompressed_size\":", e->uncompressed_size);
    jw_field_u64(out, ",\"offset\":", e->offset);
    jw_field_u64(out, ",\"header_size\":", e->header_size);
    jw_field_u64(out, ",\"payload_offset\":", e->payload_offset);
    jw_field_u64(out, ",\"raw_kind\":", e->raw_kind);
    jw_puts(out, ",\"flags\":\"0x");
    jw_hex(out, e->flags);
    jw_putc(out, '"');
    jw_puts(out, e->debug ? ",\"debug\":true" : ",\"debug\":false");
    jw_puts(out, e->obfuscated ? ",\"obfuscated\":true" : ",\"obfuscated\":false");
    if (e->identifier)
        jw_field_string(out, ",\"identifier\":", e->identifier);
    if (e->options)
        jw_field_string(out, ",\"options\":", e->options);
    if (kernels)
        json_kernels(out, e, kl, kst);
    jw_putc(out, '}');
}

static const char *cuda_version_text(int v, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", v / 1000, v % 1000 / 10);
    return buf;
}

/* ,"image":{...} for an object in an image (the image itself: what it declares). */
static void json_image(jw *out, const fc_object *o)
{
    const fc_oci_file *f = o->in_image;
    const fc_oci_image *img = f->image;
    jw_field_string(out, ",\n\"image\":{\"name\":", img->name);
    jw_field_string(out, ",\"digest\":", img->digest);
    if (o->format != FC_FORMAT_IMAGE) {
        jw_field_string(out, ",\"path\":", f->path);
        jw_field_string(out, ",\"layer\":", f->layer);
        jw_puts(out, "}");
        return;
    }
    jw_puts(out, ",\"tags\":[");
    for (size_t i = 0; i < img->n_tags; i++)
        jw_field_string(out, i ? "," : "", img->tags[i]);
    jw_puts(out, "]");
    jw_field_string(out, ",\"platform\":", img->platform);
    jw_field_string(out, ",\"platforms_not_judged\":", img->platforms_not_judged);
    jw_field_u64(out, ",\"layers\":", img->n_layers);
    jw_field_string(out, ",\"require_cuda\":", img->require_cuda);
    jw_puts(out, ",\"requirements\":[");
    for (size_t i = 0; i < img->n_requirements; i++)
        jw_field_string(out, i ? "," : "", img->requirements[i]);
    jw_puts(out, img->requirements_disabled ? "],\"requirements_disabled\":true" : "],\"requirements_disabled\":false");
    jw_puts(out, ",\"cuda_runtimes\":[");
    for (size_t i = 0; i < img->n_runtimes; i++) {
        const fc_oci_runtime *rt = &img->runtimes[i];
        char a[32];
        jw_field_string(out, i ? ",{\"path\":" : "{\"path\":", rt->path);
        jw_field_string(out, ",\"cuda\":", cuda_version_text(rt->cuda, a, sizeof a));
        jw_field_string(out, ",\"needs_cuda\":", rt->needs ? cuda_version_text(rt->needs, a, sizeof a) : NULL);
        jw_field_string(out, ",\"min_driver\":", rt->needs ? fc_cuda_min_driver(rt->needs) : NULL);
        jw_puts(out, "}");
    }
    jw_puts(out, "]}");
}

/* ,"container_starts":...,"container_reason":"..." in a verdict of an object in an image. */
static void json_container(jw *out, const fc_object *o, const fc_verdict *v)
{
    if (!o->in_image)
        return;
    jw_puts(out, ",\"container_starts\":");
    /* Without a driver the container starts, and no CUDA code in it runs. */
    jw_puts(out, v->container == FC_REQUIRE_MET || v->container == FC_REQUIRE_NO_DRIVER ? "true"
                 : v->container == FC_REQUIRE_UNKNOWN                                     ? "null"
                                                                                          : "false");
    if (v->container != FC_REQUIRE_MET)
        jw_field_string(out, ",\"container_reason\":", v->container_why);
}

static void json_target_name(jw *out, const fc_target *t)
{
    jw_field_u64(out, "\"sm_", t->cc);
    jw_putc(out, '"');
}

static void json_loads(jw *out, const fc_judge_options *jo, const fc_container *c, const fc_judgement *j, size_t ci)
{
    jw_puts(out, ",\"loads\":[");
    for (size_t t = 0; t < jo->n_targets; t++) {
        fc_load l = fc_judgement_load(j, ci, t);
        jw_puts(out, t ? "," : "");
        jw_puts(out, "{\"target\":");
        json_target_name(out, &jo->targets[t]);
        jw_field_string(out, ",\"result\":", fc_load_result_name(l.result));
        if (l.result == FC_LOAD_LINK_INPUT) {
            fc_link k = fc_judgement_link(j, ci, t);
            jw_puts(out, ",\"via\":null,\"link\":");
            if (k.entry >= 0) {
                char arch[32];
                jw_field_string(out, "{\"kind\":", fc_link_via_name(k.via));
                jw_field_string(out, ",\"image\":", fc_entry_arch_name(arch, sizeof arch, &c->entries[k.entry]));
                jw_field_u64(out, ",\"entry\":", (uint64_t)k.entry);
                jw_putc(out, '}');
            } else {
                jw_puts(out, "null");
            }
        } else if (l.entry >= 0) {
            char arch[32];
            jw_field_string(out, ",\"via\":{\"kind\":", fc_load_via_name(l.via));
            jw_field_string(out, ",\"image\":", fc_entry_arch_name(arch, sizeof arch, &c->entries[l.entry]));
            jw_field_u64(out, ",\"entry\":", (uint64_t)l.entry);
            jw_putc(out, '}');
        } else {
            jw_puts(out, ",\"via\":null");
        }
        if (fc_judgement_unused(j, ci)) /* never loaded by the runtime; not read for symbols unless probed */
            jw_puts(out, ",\"unused_link_input\":true");
        if (fc_judgement_defines_nothing(j, ci)) /* nothing to launch in it: left out of verdicts */
            jw_puts(out, ",\"defines_nothing\":true");
        const fc_probe_result *p = fc_judgement_probe(j, ci, t);
        if (p) {
            if (p->code != -3 && p->compared)
                jw_printf(out, ",\"probe\":{\"code\":%d,\"crashed\":%s,\"agrees\":%s}", p->code,
                        p->code == -1 ? "true" : "false", p->agrees ? "true" : "false");
            else if (p->code != -3) /* a link input: the driver's answer, no claim to compare */
                jw_printf(out, ",\"probe\":{\"code\":%d,\"crashed\":%s,\"agrees\":null}", p->code,
                        p->code == -1 ? "true" : "false");
        }
        jw_puts(out, "}");
    }
    jw_puts(out, "]");
}

static void json_verdicts(jw *out, const config *cfg, const fc_object *o, const fc_judgement *j)
{
    const fc_judge_options *jo = &cfg->judge;
    const fc_runtime_need *runtime = fc_judgement_runtime(j);
    const fc_probe_totals *probes = fc_judgement_probe_totals(j);
    jw_puts(out, ",\n\"verdicts\":[");
    for (size_t t = 0; t < jo->n_targets; t++) {
        const fc_verdict *v = fc_judgement_verdict(j, t);
        jw_puts(out, t ? ",\n" : "\n");
        jw_puts(out, "{\"target\":");
        json_target_name(out, &jo->targets[t]);
        jw_field_string(out, ",\"status\":", fc_verdict_status_name(v->status));
        jw_printf(out,
                ",\"modules\":%zu,\"loadable\":%zu,\"native\":%zu,\"compatible\":%zu,\"jit\":%zu,"
                "\"no_binary\":%zu,\"unsupported_ptx\":%zu,\"jit_disabled\":%zu,\"invalid_ptx\":%zu,"
                "\"relocatable\":%zu,\"link_inputs\":%zu,\"linkable\":%zu,\"unused_link_inputs\":%zu",
                v->modules, v->native + v->compatible + v->jit + v->runtime_linked, v->native, v->compatible, v->jit, v->no_binary,
                v->unsupported_ptx, v->jit_disabled, v->invalid_ptx, v->relocatable, v->link_inputs, v->linkable,
                v->unused_link_inputs);
        if (v->runtime_linked)
            jw_printf(out, ",\"runtime_linked\":%zu", v->runtime_linked);
        if (v->undecoded)
            jw_printf(out, ",\"undecoded\":%zu", v->undecoded);
        if (v->unsupported_compression)
            jw_printf(out, ",\"unsupported_compression\":%zu", v->unsupported_compression);
        if (v->toolkit_too_new)
            jw_printf(out, ",\"toolkit_too_new\":%zu,\"toolkit_too_new_cuda\":\"%d.%d\"", v->toolkit_too_new,
                      v->toolkit_too_new_cuda / 1000, v->toolkit_too_new_cuda % 1000 / 10);
        if (v->empty)
            jw_printf(out, ",\"empty_containers\":%zu", v->empty);
        if (v->damaged_cubins)
            jw_printf(out, ",\"damaged_cubins\":%zu", v->damaged_cubins);
        if (v->gpu_needs_cuda)
            jw_printf(out, ",\"gpu_needs_cuda\":\"%d.%d\"", v->gpu_needs_cuda / 1000, v->gpu_needs_cuda % 1000 / 10);
        if (v->modules_lacking_kernels)
            jw_printf(out, ",\"modules_lacking_kernels\":%zu", v->modules_lacking_kernels);
        if (v->gpu_last_cuda)
            jw_printf(out, ",\"gpu_last_cuda\":\"%d.%d\"", v->gpu_last_cuda / 1000, v->gpu_last_cuda % 1000 / 10);
        if (v->unseen_order)
            jw_printf(out, ",\"unseen_order\":%zu", v->unseen_order);
        if (v->defines_nothing)
            jw_printf(out, ",\"modules_defining_nothing\":%zu", v->defines_nothing);
        if (v->registered_all_fail)
            jw_printf(out, ",\"registered_all_fail\":true,\"registered_modules\":%zu", v->registered_failing);
        if (v->rdc_unlinkable)
            jw_printf(out, ",\"rdc_unlinkable\":%zu", v->rdc_unlinkable);
        if (!runtime->cuda || !jo->targets[t].driver_cuda || (runtime->floor_only && !v->runtime_fails))
            jw_puts(out, ",\"runtime_starts\":null");
        else
            jw_puts(out, v->runtime_fails ? ",\"runtime_starts\":false" : ",\"runtime_starts\":true");
        json_container(out, o, v);
        if (cfg->accepted[t]) {
            jw_field_string(out, ",\"accepted\":{\"reason\":", cfg->accepted[t]->reason);
            jw_printf(out, ",\"line\":%u}", cfg->accepted[t]->line);
        }
        if (probes)
            jw_printf(out, ",\"probe\":{\"compared\":%zu,\"disagreements\":%zu,\"crashes\":%zu}",
                    probes->compared, probes->disagreements, probes->crashes);
        if (jo->kernels) {
            const fc_missing_kernel *missing;
            size_t n_missing = fc_judgement_missing_kernels(&missing, j, t);
            jw_puts(out, ",\"missing_kernels\":[");
            for (size_t m = 0; m < n_missing; m++) {
                const fc_missing_kernel *mk = &missing[m];
                jw_field_string(out, m ? ",\n {\"name\":" : "\n {\"name\":", mk->name);
                jw_field_string(out, ",\"demangled\":", mk->demangled);
                jw_puts(out, ",\"available_in\":[");
                char archs[256];
                snprintf(archs, sizeof archs, "%s", mk->available_in);
                char *save = NULL;
                int first = 1;
                for (char *a = strtok_r(archs, " ", &save); a; a = strtok_r(NULL, " ", &save), first = 0)
                    jw_field_string(out, first ? "" : ",", a);
                jw_printf(out, "],\"containers\":%zu}", mk->containers);
            }
            jw_puts(out, "]");
        }
        jw_puts(out, "}");
    }
    jw_puts(out, "]");
}

static void json_arch_check(jw *out, const char *arch_list_text, const fc_arch_check *check)
{
    jw_field_string(out, ",\n\"arch_list_check\":{\"arch_list\":", arch_list_text);
    jw_printf(out, ",\"matches\":%s,\"missing\":[", check->matches ? "true" : "false");
    const char *sep = "";
    for (size_t k = 0; k < check->n_expected; k++) {
        const fc_arch_expectation *x = &check->expected[k];
        if (!x->lacking)
            continue;
        jw_printf(out, "%s{\"image\":\"%s%u%s\",\"containers_lacking\":%zu}", sep,
                x->kind == FC_IMAGE_PTX ? "compute_" : "sm_", x->cc, x->arch_specific ? "a" : "", x->lacking);
        sep = ",";
    }
    jw_puts(out, "],\"unexpected\":[");
    for (size_t u = 0; u < check->n_unexpected; u++)
        jw_field_string(out, u ? "," : "", check->unexpected[u]);
    jw_puts(out, "]}");
}

static void json_ptx_requirement(jw *out, const fc_ptx_need *p)
{
    jw_printf(out, ",\n\"ptx_requirement\":{\"ptx_isa\":\"%u.%u\",\"cuda\":", p->isa_major, p->isa_minor);
    if (p->cuda)
        jw_printf(out, "\"%d.%d\"", p->cuda / 1000, p->cuda % 1000 / 10);
    else
        jw_puts(out, "null");
    jw_field_string(out, ",\"min_driver\":", p->min_driver);
    jw_puts(out, "}");
}

static void json_runtime(jw *out, const fc_object *o, const fc_runtime_need *n)
{
    jw_field_string(out, ",\n\"runtime\":{\"kind\":", fc_runtime_kind_name(n->kind));
    jw_puts(out, ",\"cuda_libraries\":[");
    for (size_t i = 0; i < o->n_needed; i++)
        jw_field_string(out, i ? "," : "", o->needed[i]);
    jw_puts(out, "],\"needs_cuda\":");
    if (n->cuda)
        jw_printf(out, "\"%d.%d\"", n->cuda / 1000, n->cuda % 1000 / 10);
    else
        jw_puts(out, "null");
    jw_field_string(out, ",\"min_driver\":", n->cuda && !fc_object_is_windows(o) ? fc_cuda_min_driver(n->cuda) : NULL);
    jw_field_string(out, ",\"decided_by\":", n->decided_by[0] ? n->decided_by : NULL);
    jw_puts(out, ",\"built_by\":");
    if (n->built_by)
        jw_printf(out, "\"%d.%d\"", n->built_by / 1000, n->built_by % 1000 / 10);
    else
        jw_puts(out, "null");
    jw_field_string(out, ",\"built_by_evidence\":", n->built_by_evidence[0] ? n->built_by_evidence : NULL);
    jw_puts(out, "}");
}

static void json_torch_extension(jw *out, const config *cfg, const fc_object *o)
{
    const fc_torch_extension *x = cfg->torch_ext;
    jw_field_string(out, ",\n\"torch_extension\":{\"name\":", x->name);
    jw_field_string(out, ",\"folder\":", x->dir);
    jw_field_string(out, ",\"python\":", x->python[0] ? x->python : NULL);
    jw_field_string(out, ",\"build\":", x->build[0] ? x->build : NULL);
    int stale = torch_ext_stale(cfg);
    jw_puts(out, ",\"stale\":");
    jw_puts(out, stale < 0 ? "null" : stale ? "true" : "false");
    unsigned ccs[64];
    size_t n = fc_covering_ccs(ccs, 64, o, cfg->judge.targets, cfg->judge.n_targets);
    fc_build_flags f;
    fc_build_flags_format(&f, ccs, n, false);
    jw_field_string(out, ",\"rebuild_with\":{\"remove\":", x->dir);
    jw_field_string(out, ",\"torch_cuda_arch_list\":", f.torch);
    jw_puts(out, "}}");
}

void json_report_object(json_report *s, const fc_object *o, const fc_judgement *j)
{
    const config *cfg = s->cfg;
    const fc_judge_options *jo = &cfg->judge;
    jw *out = &s->w;
    jw_puts(out, s->files++ ? ",\n" : "\n");
    jw_field_string(out, "{\"path\":", o->path);
    if (o->member)
        jw_field_string(out, ",\"member\":", o->member);
    jw_field_string(out, ",\"format\":", fc_format_name(o->format));
    jw_field_u64(out, ",\"size\":", o->size);
    if (o->error)
        jw_field_string(out, ",\"error\":", o->error);
    jw_puts(out, ",\"containers\":[");
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *c = &o->containers[i];
        jw_field_u64(out, i ? ",\n {\"offset\":" : "\n {\"offset\":", c->offset);
        jw_field_u64(out, ",\"size\":", c->size);
        jw_field_string(out, ",\"section\":", c->section);
        jw_field_string(out, ",\"origin\":", fc_origin_name(c->origin));
        jw_field_string(out, ",\"role\":", fc_role_name(c->role));
        if (c->device_link)
            jw_puts(out, ",\"device_link\":true");
        jw_puts(out, ",\"entries\":[");
        for (size_t k = 0; k < c->n_entries; k++) {
            jw_puts(out, k ? ",\n  " : "\n  ");
            const fc_kernel_list *kl = NULL;
            bool kernels = j && jo->kernels;
            fc_status kst = kernels ? fc_judgement_kernels(&kl, j, i, k) : FC_OK;
            json_entry(out, &c->entries[k], kl, kst, kernels);
        }
        jw_puts(out, "]");
        if (j && jo->n_targets)
            json_loads(out, jo, c, j, i);
        jw_puts(out, "}");
    }
    jw_puts(out, "]");
    if (j && jo->n_targets)
        json_verdicts(out, cfg, o, j);
    if (j && fc_judgement_arch_check(j))
        json_arch_check(out, cfg->arch_list_text, fc_judgement_arch_check(j));
    if (j && fc_judgement_ptx(j)->isa_major)
        json_ptx_requirement(out, fc_judgement_ptx(j));
    const fc_runtime_need *runtime = fc_judgement_runtime(j);
    if (j && (runtime->kind != FC_RUNTIME_NONE || runtime->cuda))
        json_runtime(out, o, runtime);
    if (o->device_link_missing)
        jw_puts(out, ",\n\"device_link_missing\":true");
    if (o->sections_searched_in_part)
        jw_printf(out, ",\n\"sections_searched_in_part\":%zu", o->sections_searched_in_part);
    if (o->appended_size)
        jw_printf(out, ",\n\"appended\":{\"offset\":%llu,\"size\":%llu%s}", (unsigned long long)o->appended_offset,
                  (unsigned long long)o->appended_size, o->appended_zip ? ",\"zip\":true" : "");
    if (cfg->torch_ext)
        json_torch_extension(out, cfg, o);
    if (o->in_image)
        json_image(out, o);
    jw_puts(out, "}");
}

/* S copied, or NULL for none; a copy that failed is noted (oom.h): the document would say null,
 * or leave the message out. */
static char *dup_or_null(const char *s)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        oom_note();
    return d;
}

static void add_message(struct message **list, size_t *n, size_t *cap, const fc_error *e)
{
    struct message *more = fc_grow(*list, cap, *n + 1, sizeof *more, 8);
    if (!more) {
        oom_note();
        return;
    }
    *list = more;
    more[*n].path = dup_or_null(e->path);
    more[*n].message = dup_or_null(e->message);
    (*n)++;
}

void json_report_error(json_report *s, const fc_error *e)
{
    add_message(&s->errors, &s->n_errors, &s->cap_errors, e);
}

void json_report_warning(json_report *s, const fc_error *w)
{
    add_message(&s->warnings, &s->n_warnings, &s->cap_warnings, w);
}

/* The list's messages as "[{path, message}, ...]", freeing them. */
static void put_messages(jw *out, struct message *list, size_t n)
{
    jw_putc(out, '[');
    for (size_t i = 0; i < n; i++) {
        jw_puts(out, i ? ",\n" : "\n");
        jw_field_string(out, "{\"path\":", list[i].path);
        jw_field_string(out, ",\"message\":", list[i].message);
        jw_putc(out, '}');
        free(list[i].path);
        free(list[i].message);
    }
    jw_putc(out, ']');
}

/* {"torch_cuda_arch_list":..,"cmake_cuda_architectures":..,"nvcc":.., without the closing brace. */
static void json_build_flags(jw *out, const fc_build_flags *f)
{
    jw_field_string(out, "{\"torch_cuda_arch_list\":", f->torch);
    jw_field_string(out, ",\"cmake_cuda_architectures\":", f->cmake);
    jw_field_string(out, ",\"nvcc\":", f->nvcc);
}

/* The targets judged, how they were found, and what to build for them. */
static void json_targets_and_advice(jw *out, const config *cfg)
{
    const fc_judge_options *jo = &cfg->judge;
    jw_puts(out, ",\n\"targets\":[");
    for (size_t t = 0; t < jo->n_targets; t++) {
        const fc_target *tg = &jo->targets[t];
        jw_printf(out, "%s\n{\"target\":\"sm_%u\",\"compute_capability\":\"%u.%u\",\"tegra\":%s", t ? "," : "",
                  tg->cc, tg->cc / 10, tg->cc % 10, tg->tegra ? "true" : "false");
        jw_field_string(out, ",\"name\":", tg->name[0] ? tg->name : NULL);
        jw_field_string(out, ",\"source\":", tg->source);
        if (tg->uuid[0])
            jw_field_string(out, ",\"uuid\":", tg->uuid);
        if (tg->driver_cuda)
            jw_printf(out, ",\"driver_cuda\":\"%d.%d\",\"driver_assumed\":false", tg->driver_cuda / 1000,
                      tg->driver_cuda % 1000 / 10);
        else
            jw_puts(out, ",\"driver_cuda\":null,\"driver_assumed\":true");
        jw_puts(out, "}");
    }
    jw_puts(out, "]");
    if (!jo->n_targets && cfg->no_target_reason[0])
        jw_field_string(out, ",\n\"targets_note\":", cfg->no_target_reason);
    if (cfg->detect_ran) {
        jw_field_string(out, ",\n\"detection\":{\"by\":", cfg->detected_by);
        jw_field_string(out, ",\"note\":", cfg->detect_note[0] ? cfg->detect_note : NULL);
        jw_field_string(out, ",\"driver_reason\":", cfg->detect_driver_reason[0] ? cfg->detect_driver_reason : NULL);
        jw_field_string(out, ",\"not_judged\":", cfg->detect_unjudged[0] ? cfg->detect_unjudged : NULL);
        jw_puts(out, "}");
    }
    jw_printf(out, ",\n\"jit_policy\":{\"CUDA_FORCE_PTX_JIT\":%s,\"CUDA_DISABLE_PTX_JIT\":%s}",
              jo->jit.force_ptx_jit ? "true" : "false", jo->jit.disable_ptx_jit ? "true" : "false");
    if (!jo->n_targets)
        return;
    unsigned ccs[FC_MAX_TARGETS];
    size_t n = fc_covering_ccs(ccs, FC_MAX_TARGETS, NULL, jo->targets, jo->n_targets);
    fc_build_flags native, ptx;
    fc_build_flags_format(&native, ccs, n, false);
    fc_build_flags_format(&ptx, ccs, n, true);
    jw_puts(out, ",\n\"advice\":");
    json_build_flags(out, &native);
    jw_puts(out, ",\"with_ptx\":");
    json_build_flags(out, &ptx);
    jw_puts(out, "}}");
}

/* --accept: the rules, how many verdicts each accepted, and whether it is stale. */
static void json_accept(jw *out, const config *cfg)
{
    const accept_rules *r = cfg->accept;
    if (!r)
        return;
    jw_field_string(out, ",\n\"accept\":{\"file\":", r->path);
    jw_puts(out, ",\"rules\":[");
    for (size_t i = 0; i < r->n; i++) {
        const accept_rule *a = &r->rules[i];
        jw_printf(out, "%s\n{\"line\":%u", i ? "," : "", a->line);
        jw_field_string(out, ",\"pattern\":", a->pattern);
        jw_field_string(out, ",\"target\":", a->target);
        jw_field_string(out, ",\"status\":", fc_verdict_status_name(a->status));
        if (a->max_failing)
            jw_printf(out, ",\"max_failing\":%zu", a->max_failing);
        jw_field_string(out, ",\"reason\":", a->reason);
        jw_printf(out, ",\"accepted\":%zu,\"stale\":%s}", a->used, rule_stale(cfg, a) ? "true" : "false");
    }
    jw_puts(out, "]}");
}

json_report *json_report_open(FILE *out, const config *cfg)
{
    json_report *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cfg = cfg;
    s->w = jw_make(out, s->buf, sizeof s->buf);
    jw_printf(&s->w, "{\"schema_version\":%d,\"fatcheck_version\":\"%s\",\n\"files\":[", SCHEMA_VERSION,
              FC_VERSION_STRING);
    return s;
}

void json_report_close(json_report *s)
{
    if (!s)
        return;
    jw *out = &s->w;
    jw_puts(out, "\n],\n\"errors\":");
    put_messages(out, s->errors, s->n_errors);
    if (s->n_warnings) { /* only when there are some: documents without stay as they were */
        jw_puts(out, ",\n\"warnings\":");
        put_messages(out, s->warnings, s->n_warnings);
    }
    jw_printf(out, ",\n\"skipped_in_walks\":{\"symlinked_directories\":%zu,\"packages\":%zu}",
              s->cfg->skipped_links, s->cfg->skipped_packages);
    json_targets_and_advice(out, s->cfg);
    json_accept(out, s->cfg);
    jw_puts(out, "}\n");
    jw_flush(out);
    free(s->errors);
    free(s->warnings);
    free(s);
}
