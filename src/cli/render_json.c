/* render_json.c - --json: one document, written as objects arrive. Schema: docs/json.md. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SCHEMA_VERSION 1

typedef struct json_state {
    size_t files;
    char **errors; /* messages, written at the end */
    char **error_paths;
    size_t n_errors, cap_errors;
} json_state;

static void json_kernels(FILE *out, const fc_entry *e, const fc_kernel_list *kl, fc_status st)
{
    if (!kl) {
        if (e->kind == FC_IMAGE_CUBIN || e->kind == FC_IMAGE_PTX) {
            fputs(",\"kernels_error\":", out);
            json_string(out, fc_status_name(st));
        }
        return;
    }
    if (kl->arch_mismatch)
        fprintf(out, ",\"elf_arch\":\"sm_%u\"", kl->elf_arch);
    fputs(",\"kernels\":[", out);
    for (size_t k = 0; k < kl->n; k++) {
        const fc_kernel *kn = &kl->items[k];
        fputs(k ? ",{\"name\":" : "{\"name\":", out);
        json_string(out, kn->name);
        fputs(",\"demangled\":", out);
        json_string(out, kn->demangled);
        fprintf(out, ",\"entry\":%s", kn->entry ? "true" : "false");
        if (kn->registers >= 0)
            fprintf(out, ",\"registers\":%d", kn->registers);
        if (kn->shared_bytes >= 0)
            fprintf(out, ",\"shared_bytes\":%lld", (long long)kn->shared_bytes);
        fputs("}", out);
    }
    fputs("]", out);
}

static void json_entry(FILE *out, const fc_entry *e, const fc_kernel_list *kl, fc_status kst, bool kernels)
{
    char arch[32];
    fputs("{\"kind\":", out);
    json_string(out, fc_image_kind_name(e->kind));
    fputs(",\"arch\":", out);
    json_string(out, fc_entry_arch_name(e, arch, sizeof arch));
    if (e->kind == FC_IMAGE_PTX)
        fprintf(out, ",\"ptx_isa\":\"%u.%u\"", e->version_major, e->version_minor);
    else if (e->kind == FC_IMAGE_CUBIN && (e->version_major || e->version_minor))
        fprintf(out, ",\"code_version\":\"%u.%u\"", e->version_major, e->version_minor);
    fputs(",\"compression\":", out);
    json_string(out, fc_compression_name(e->compression));
    /* Numbers by hand: this is the loop that writes most of a large document. */
    json_field_u64(out, ",\"size\":", e->stored_size);
    json_field_u64(out, ",\"uncompressed_size\":", e->uncompressed_size);
    json_field_u64(out, ",\"offset\":", e->offset);
    json_field_u64(out, ",\"header_size\":", e->header_size);
    json_field_u64(out, ",\"payload_offset\":", e->payload_offset);
    json_field_u64(out, ",\"raw_kind\":", e->raw_kind);
    fprintf(out, ",\"flags\":\"0x%" PRIx64 "\"", e->flags);
    fputs(e->debug ? ",\"debug\":true" : ",\"debug\":false", out);
    fputs(e->obfuscated ? ",\"obfuscated\":true" : ",\"obfuscated\":false", out);
    if (e->identifier) {
        fputs(",\"identifier\":", out);
        json_string(out, e->identifier);
    }
    if (e->options) {
        fputs(",\"options\":", out);
        json_string(out, e->options);
    }
    if (kernels)
        json_kernels(out, e, kl, kst);
    putc('}', out);
}

static void json_target_name(FILE *out, const fc_target *t)
{
    fprintf(out, "\"sm_%u\"", t->cc);
}

static void json_loads(FILE *out, const fc_container *c, const judgement *j, size_t ci)
{
    const config *cfg = j->cfg;
    fputs(",\"loads\":[", out);
    for (size_t t = 0; t < cfg->n_targets; t++) {
        fc_load l = j->loads[ci * cfg->n_targets + t];
        fputs(t ? "," : "", out);
        fputs("{\"target\":", out);
        json_target_name(out, &cfg->targets[t]);
        fputs(",\"result\":", out);
        json_string(out, fc_load_result_name(l.result));
        if (l.entry >= 0) {
            char arch[32];
            fputs(",\"via\":{\"kind\":", out);
            json_string(out, fc_load_via_name(l.via));
            fputs(",\"image\":", out);
            json_string(out, fc_entry_arch_name(&c->entries[l.entry], arch, sizeof arch));
            json_field_u64(out, ",\"entry\":", (uint64_t)l.entry);
            putc('}', out);
        } else {
            fputs(",\"via\":null", out);
        }
        if (j->unused[ci]) /* never loaded by the runtime; not read for symbols unless probed */
            fputs(",\"unused_link_input\":true", out);
        if (j->probes) {
            const probe_result *p = &j->probes[ci * cfg->n_targets + t];
            if (p->code != -3)
                fprintf(out, ",\"probe\":{\"code\":%d,\"crashed\":%s,\"agrees\":%s}", p->code,
                        p->code == -1 ? "true" : "false", p->agrees ? "true" : "false");
        }
        fputs("}", out);
    }
    fputs("]", out);
}

static const char *status_name(verdict_status s)
{
    switch (s) {
    case VERDICT_OK: return "ok";
    case VERDICT_PARTIAL: return "partial";
    case VERDICT_NONE: return "none";
    case VERDICT_NO_CODE: break;
    }
    return "no-code";
}

static void json_verdicts(FILE *out, const judgement *j)
{
    const config *cfg = j->cfg;
    fputs(",\n\"verdicts\":[", out);
    for (size_t t = 0; t < cfg->n_targets; t++) {
        const verdict *v = &j->verdicts[t];
        fputs(t ? ",\n" : "\n", out);
        fputs("{\"target\":", out);
        json_target_name(out, &cfg->targets[t]);
        fputs(",\"status\":", out);
        json_string(out, status_name(v->status));
        fprintf(out,
                ",\"modules\":%zu,\"loadable\":%zu,\"native\":%zu,\"compatible\":%zu,\"jit\":%zu,"
                "\"no_binary\":%zu,\"unsupported_ptx\":%zu,\"jit_disabled\":%zu,\"link_only\":%zu,"
                "\"needs_device_link\":%zu,\"unused_link_inputs\":%zu",
                v->modules, v->native + v->compatible + v->jit, v->native, v->compatible, v->jit, v->no_binary,
                v->unsupported_ptx, v->jit_disabled, v->link_only, v->linked, v->left_out);
        if (j->probes)
            fprintf(out, ",\"probe\":{\"compared\":%zu,\"disagreements\":%zu,\"crashes\":%zu}",
                    j->probe_compared, j->probe_disagreements, j->probe_crashes);
        if (j->kv) {
            fputs(",\"missing_kernels\":[", out);
            for (size_t m = 0; m < j->kv->n_missing[t]; m++) {
                const missing_kernel *mk = &j->kv->missing[t][m];
                fputs(m ? ",\n {\"name\":" : "\n {\"name\":", out);
                json_string(out, mk->name);
                fputs(",\"demangled\":", out);
                json_string(out, mk->demangled);
                fputs(",\"available_in\":[", out);
                char archs[256];
                snprintf(archs, sizeof archs, "%s", mk->available_in);
                char *save = NULL;
                int first = 1;
                for (char *a = strtok_r(archs, " ", &save); a; a = strtok_r(NULL, " ", &save), first = 0) {
                    fputs(first ? "" : ",", out);
                    json_string(out, a);
                }
                fprintf(out, "],\"containers\":%zu}", mk->containers);
            }
            fputs("]", out);
        }
        fputs("}", out);
    }
    fputs("]", out);
}

static void json_arch_check(FILE *out, const judgement *j)
{
    fputs(",\n\"arch_list_check\":{\"arch_list\":", out);
    json_string(out, j->cfg->arch_list_text);
    fprintf(out, ",\"matches\":%s,\"missing\":[", j->arch_list_ok ? "true" : "false");
    const char *sep = "";
    for (size_t k = 0; k < j->n_expected; k++) {
        const arch_expectation *x = &j->expected[k];
        if (!x->lacking)
            continue;
        fprintf(out, "%s{\"image\":\"%s%u%s\",\"containers_lacking\":%zu}", sep,
                x->kind == FC_IMAGE_PTX ? "compute_" : "sm_", x->cc, x->arch_specific ? "a" : "", x->lacking);
        sep = ",";
    }
    fputs("],\"unexpected\":[", out);
    for (size_t u = 0; u < j->n_unexpected; u++) {
        fputs(u ? "," : "", out);
        json_string(out, j->unexpected[u]);
    }
    fputs("]}", out);
}

static void json_ptx_requirement(FILE *out, const judgement *j)
{
    int cuda = fc_ptx_isa_cuda_version(j->ptx_isa_major, j->ptx_isa_minor);
    const char *drv = cuda ? fc_cuda_min_driver(cuda) : NULL;
    fprintf(out, ",\n\"ptx_requirement\":{\"ptx_isa\":\"%u.%u\",\"cuda\":", j->ptx_isa_major,
            j->ptx_isa_minor);
    if (cuda)
        fprintf(out, "\"%d.%d\"", cuda / 1000, cuda % 1000 / 10);
    else
        fputs("null", out);
    fputs(",\"min_driver\":", out);
    json_string(out, drv);
    fputs("}", out);
}

static void json_torch_extension(FILE *out, const config *cfg, const fc_object *o)
{
    const fc_torch_extension *x = cfg->torch_ext;
    fputs(",\n\"torch_extension\":{\"name\":", out);
    json_string(out, x->name);
    fputs(",\"folder\":", out);
    json_string(out, x->dir);
    fputs(",\"python\":", out);
    json_string(out, x->python[0] ? x->python : NULL);
    fputs(",\"build\":", out);
    json_string(out, x->build[0] ? x->build : NULL);
    fputs(",\"stale\":", out);
    fputs(!cfg->env_known || !x->python[0] ? "null" : torch_ext_stale(cfg) ? "true" : "false", out);
    unsigned ccs[64];
    size_t n = covering_ccs(cfg, o, ccs, 64);
    char torch[256];
    format_torch_arch_list(ccs, n, false, torch, sizeof torch);
    fputs(",\"rebuild_with\":{\"remove\":", out);
    json_string(out, x->dir);
    fputs(",\"torch_cuda_arch_list\":", out);
    json_string(out, torch);
    fputs("}}", out);
}

static void json_object(renderer *r, const fc_object *o, const judgement *j)
{
    json_state *s = r->state;
    FILE *out = r->out;
    /* Held for the whole object: the scan's helper threads make every stdio call lock. */
    flockfile(out);
    fputs(s->files++ ? ",\n" : "\n", out);
    fputs("{\"path\":", out);
    json_string(out, o->path);
    if (o->member) {
        fputs(",\"member\":", out);
        json_string(out, o->member);
    }
    fputs(",\"format\":", out);
    json_string(out, fc_format_name(o->format));
    fprintf(out, ",\"size\":%" PRIu64, o->size);
    if (o->error) {
        fputs(",\"error\":", out);
        json_string(out, o->error);
    }
    fputs(",\"containers\":[", out);
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *c = &o->containers[i];
        json_field_u64(out, i ? ",\n {\"offset\":" : "\n {\"offset\":", c->offset);
        json_field_u64(out, ",\"size\":", c->size);
        fputs(",\"section\":", out);
        json_string(out, c->section);
        fputs(",\"origin\":", out);
        json_string(out, fc_origin_name(c->origin));
        fputs(",\"entries\":[", out);
        for (size_t k = 0; k < c->n_entries; k++) {
            fputs(k ? ",\n  " : "\n  ", out);
            const kernel_view *kv = j ? j->kv : NULL;
            json_entry(out, &c->entries[k], kv ? kernel_view_entry(kv, i, k) : NULL,
                       kv ? kv->status[kv->first[i] + k] : FC_OK, kv != NULL);
        }
        fputs("]", out);
        if (j && j->cfg->n_targets)
            json_loads(out, c, j, i);
        fputs("}", out);
    }
    fputs("]", out);
    if (j && j->cfg->n_targets)
        json_verdicts(out, j);
    if (j && j->cfg->have_arch_list)
        json_arch_check(out, j);
    if (j && j->ptx_isa_major)
        json_ptx_requirement(out, j);
    if (r->cfg && r->cfg->torch_ext)
        json_torch_extension(out, r->cfg, o);
    fputs("}", out);
    funlockfile(out);
    if (o->error)
        fprintf(r->err, "fatcheck: %s\n", o->error);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void json_error(renderer *r, const fc_error *e)
{
    json_state *s = r->state;
    fprintf(r->err, "fatcheck: %s\n", e->message);
    if (s->n_errors == s->cap_errors) {
        size_t n = s->cap_errors ? s->cap_errors * 2 : 8;
        char **a = realloc(s->errors, n * sizeof *a), **b;
        if (!a)
            return;
        s->errors = a;
        if (!(b = realloc(s->error_paths, n * sizeof *b)))
            return;
        s->error_paths = b;
        s->cap_errors = n;
    }
    s->errors[s->n_errors] = dup_or_null(e->message);
    s->error_paths[s->n_errors] = dup_or_null(e->path);
    s->n_errors++;
}

static void json_begin(renderer *r, const char *path)
{
    (void)r;
    (void)path;
}

static void json_finish(renderer *r)
{
    json_state *s = r->state;
    FILE *out = r->out;
    fputs("\n],\n\"errors\":[", out);
    for (size_t i = 0; i < s->n_errors; i++) {
        fputs(i ? ",\n" : "\n", out);
        fputs("{\"path\":", out);
        json_string(out, s->error_paths[i]);
        fputs(",\"message\":", out);
        json_string(out, s->errors[i]);
        putc('}', out);
        free(s->errors[i]);
        free(s->error_paths[i]);
    }
    fputs("]", out);
    json_targets_and_advice(out, r->cfg);
    fputs("}\n", out);
    free(s->errors);
    free(s->error_paths);
    s->errors = s->error_paths = NULL;
    s->n_errors = 0;
}

renderer *render_json_new(FILE *out, FILE *err, const config *cfg)
{
    renderer *r = calloc(1, sizeof *r);
    json_state *s = calloc(1, sizeof *s);
    if (!r || !s) {
        free(r);
        free(s);
        return NULL;
    }
    r->begin_input = json_begin;
    r->object = json_object;
    r->error = json_error;
    r->finish = json_finish;
    r->out = out;
    r->err = err;
    r->cfg = cfg;
    r->state = s;
    fprintf(out, "{\"schema_version\":%d,\"fatcheck_version\":\"%s\",\n\"files\":[", SCHEMA_VERSION,
            FC_VERSION_STRING);
    return r;
}
