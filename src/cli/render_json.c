/* render_json.c - --json: one document, written as objects arrive. Schema: docs/json.md. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_view.h"
#include "json_writer.h"


typedef struct json_state {
    jw w;                  /* the document goes through here */
    char buf[1 << 16];
    size_t files;
    char **errors; /* messages, written at the end */
    char **error_paths;
    size_t n_errors, cap_errors;
} json_state;

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
    jw_field_string(out, ",\"arch\":", fc_entry_arch_name(e, arch, sizeof arch));
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

static void json_target_name(jw *out, const fc_target *t)
{
    jw_field_u64(out, "\"sm_", t->cc);
    jw_putc(out, '"');
}

static void json_loads(jw *out, const fc_container *c, const judgement *j, size_t ci)
{
    const config *cfg = j->cfg;
    jw_puts(out, ",\"loads\":[");
    for (size_t t = 0; t < cfg->n_targets; t++) {
        fc_load l = j->loads[ci * cfg->n_targets + t];
        jw_puts(out, t ? "," : "");
        jw_puts(out, "{\"target\":");
        json_target_name(out, &cfg->targets[t]);
        jw_field_string(out, ",\"result\":", fc_load_result_name(l.result));
        if (l.result == FC_LOAD_LINK_INPUT) {
            fc_link k = j->links[ci * cfg->n_targets + t];
            jw_puts(out, ",\"via\":null,\"link\":");
            if (k.entry >= 0) {
                char arch[32];
                jw_field_string(out, "{\"kind\":", fc_link_via_name(k.via));
                jw_field_string(out, ",\"image\":", fc_entry_arch_name(&c->entries[k.entry], arch, sizeof arch));
                jw_field_u64(out, ",\"entry\":", (uint64_t)k.entry);
                jw_putc(out, '}');
            } else {
                jw_puts(out, "null");
            }
        } else if (l.entry >= 0) {
            char arch[32];
            jw_field_string(out, ",\"via\":{\"kind\":", fc_load_via_name(l.via));
            jw_field_string(out, ",\"image\":", fc_entry_arch_name(&c->entries[l.entry], arch, sizeof arch));
            jw_field_u64(out, ",\"entry\":", (uint64_t)l.entry);
            jw_putc(out, '}');
        } else {
            jw_puts(out, ",\"via\":null");
        }
        if (j->unused[ci]) /* never loaded by the runtime; not read for symbols unless probed */
            jw_puts(out, ",\"unused_link_input\":true");
        if (j->probes) {
            const probe_result *p = &j->probes[ci * cfg->n_targets + t];
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

static void json_verdicts(jw *out, const fc_object *o, const judgement *j)
{
    const config *cfg = j->cfg;
    jw_puts(out, ",\n\"verdicts\":[");
    for (size_t t = 0; t < cfg->n_targets; t++) {
        const verdict *v = &j->verdicts[t];
        jw_puts(out, t ? ",\n" : "\n");
        jw_puts(out, "{\"target\":");
        json_target_name(out, &cfg->targets[t]);
        jw_field_string(out, ",\"status\":", status_name(v->status));
        jw_printf(out,
                ",\"modules\":%zu,\"loadable\":%zu,\"native\":%zu,\"compatible\":%zu,\"jit\":%zu,"
                "\"no_binary\":%zu,\"unsupported_ptx\":%zu,\"jit_disabled\":%zu,\"invalid_ptx\":%zu,"
                "\"relocatable\":%zu,\"link_inputs\":%zu,\"linkable\":%zu,\"unused_link_inputs\":%zu",
                v->modules, v->native + v->compatible + v->jit, v->native, v->compatible, v->jit, v->no_binary,
                v->unsupported_ptx, v->jit_disabled, v->invalid_ptx, v->relocatable, v->link_inputs, v->linkable,
                v->left_out);
        if (!j->runtime.cuda || !cfg->targets[t].driver_cuda)
            jw_puts(out, ",\"runtime_starts\":null");
        else
            jw_puts(out, v->runtime_fails ? ",\"runtime_starts\":false" : ",\"runtime_starts\":true");
        json_container(out, o, v);
        if (j->probes)
            jw_printf(out, ",\"probe\":{\"compared\":%zu,\"disagreements\":%zu,\"crashes\":%zu}",
                    j->probe_compared, j->probe_disagreements, j->probe_crashes);
        if (j->kv) {
            jw_puts(out, ",\"missing_kernels\":[");
            for (size_t m = 0; m < j->kv->n_missing[t]; m++) {
                const missing_kernel *mk = &j->kv->missing[t][m];
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

static void json_arch_check(jw *out, const judgement *j)
{
    jw_field_string(out, ",\n\"arch_list_check\":{\"arch_list\":", j->cfg->arch_list_text);
    jw_printf(out, ",\"matches\":%s,\"missing\":[", j->arch_list_ok ? "true" : "false");
    const char *sep = "";
    for (size_t k = 0; k < j->n_expected; k++) {
        const arch_expectation *x = &j->expected[k];
        if (!x->lacking)
            continue;
        jw_printf(out, "%s{\"image\":\"%s%u%s\",\"containers_lacking\":%zu}", sep,
                x->kind == FC_IMAGE_PTX ? "compute_" : "sm_", x->cc, x->arch_specific ? "a" : "", x->lacking);
        sep = ",";
    }
    jw_puts(out, "],\"unexpected\":[");
    for (size_t u = 0; u < j->n_unexpected; u++)
        jw_field_string(out, u ? "," : "", j->unexpected[u]);
    jw_puts(out, "]}");
}

static void json_ptx_requirement(jw *out, const judgement *j)
{
    int cuda = fc_ptx_isa_cuda_version(j->ptx_isa_major, j->ptx_isa_minor);
    const char *drv = cuda ? fc_cuda_min_driver(cuda) : NULL;
    jw_printf(out, ",\n\"ptx_requirement\":{\"ptx_isa\":\"%u.%u\",\"cuda\":", j->ptx_isa_major,
            j->ptx_isa_minor);
    if (cuda)
        jw_printf(out, "\"%d.%d\"", cuda / 1000, cuda % 1000 / 10);
    else
        jw_puts(out, "null");
    jw_field_string(out, ",\"min_driver\":", drv);
    jw_puts(out, "}");
}

static void json_runtime(jw *out, const fc_object *o, const judgement *j)
{
    const fc_runtime_need *n = &j->runtime;
    jw_field_string(out, ",\n\"runtime\":{\"kind\":", fc_runtime_kind_name(n->kind));
    jw_puts(out, ",\"cuda_libraries\":[");
    for (size_t i = 0; i < o->n_needed; i++)
        jw_field_string(out, i ? "," : "", o->needed[i]);
    jw_puts(out, "],\"needs_cuda\":");
    if (n->cuda)
        jw_printf(out, "\"%d.%d\"", n->cuda / 1000, n->cuda % 1000 / 10);
    else
        jw_puts(out, "null");
    jw_field_string(out, ",\"min_driver\":", n->cuda ? fc_cuda_min_driver(n->cuda) : NULL);
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
    jw_puts(out, ",\"stale\":");
    jw_puts(out, !cfg->env_known || !x->python[0] ? "null" : torch_ext_stale(cfg) ? "true" : "false");
    unsigned ccs[64];
    size_t n = covering_ccs(cfg, o, ccs, 64);
    char torch[256];
    format_torch_arch_list(ccs, n, false, torch, sizeof torch);
    jw_field_string(out, ",\"rebuild_with\":{\"remove\":", x->dir);
    jw_field_string(out, ",\"torch_cuda_arch_list\":", torch);
    jw_puts(out, "}}");
}

static void json_object(renderer *r, const fc_object *o, const judgement *j)
{
    json_state *s = r->state;
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
        jw_puts(out, ",\"entries\":[");
        for (size_t k = 0; k < c->n_entries; k++) {
            jw_puts(out, k ? ",\n  " : "\n  ");
            const kernel_view *kv = j ? j->kv : NULL;
            json_entry(out, &c->entries[k], kv ? kernel_view_entry(kv, i, k) : NULL,
                       kv ? kv->status[kv->first[i] + k] : FC_OK, kv != NULL);
        }
        jw_puts(out, "]");
        if (j && j->cfg->n_targets)
            json_loads(out, c, j, i);
        jw_puts(out, "}");
    }
    jw_puts(out, "]");
    if (j && j->cfg->n_targets)
        json_verdicts(out, o, j);
    if (j && j->cfg->have_arch_list)
        json_arch_check(out, j);
    if (j && j->ptx_isa_major)
        json_ptx_requirement(out, j);
    if (j && (j->runtime.kind != FC_RUNTIME_NONE || j->runtime.cuda))
        json_runtime(out, o, j);
    if (o->device_link_missing)
        jw_puts(out, ",\n\"device_link_missing\":true");
    if (r->cfg && r->cfg->torch_ext)
        json_torch_extension(out, r->cfg, o);
    if (o->in_image)
        json_image(out, o);
    jw_puts(out, "}");
    if (o->error)
        print_message(r->err, o->error, o->path, o->member);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void json_error(renderer *r, const fc_error *e)
{
    json_state *s = r->state;
    print_message(r->err, e->message, e->path, e->member);
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
    jw *out = &s->w;
    jw_puts(out, "\n],\n\"errors\":[");
    for (size_t i = 0; i < s->n_errors; i++) {
        jw_puts(out, i ? ",\n" : "\n");
        jw_field_string(out, "{\"path\":", s->error_paths[i]);
        jw_field_string(out, ",\"message\":", s->errors[i]);
        jw_putc(out, '}');
        free(s->errors[i]);
        free(s->error_paths[i]);
    }
    jw_puts(out, "]");
    jw_printf(out, ",\n\"skipped_in_walks\":{\"symlinked_directories\":%zu,\"packages\":%zu}", r->cfg->skipped_links,
              r->cfg->skipped_packages);
    jw_flush(out);
    json_targets_and_advice(r->out, r->cfg);
    fputs("}\n", r->out);
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
    s->w = jw_make(out, s->buf, sizeof s->buf);
    jw_printf(&s->w, "{\"schema_version\":%d,\"fatcheck_version\":\"%s\",\n\"files\":[", SCHEMA_VERSION,
              FC_VERSION_STRING);
    return r;
}
