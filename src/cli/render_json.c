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

static void json_entry(FILE *out, const fc_entry *e)
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
    fprintf(out, ",\"size\":%" PRIu64 ",\"uncompressed_size\":%" PRIu64, e->stored_size, e->uncompressed_size);
    fprintf(out, ",\"offset\":%" PRIu64 ",\"header_size\":%" PRIu32 ",\"payload_offset\":%" PRIu64,
            e->offset, e->header_size, e->payload_offset);
    fprintf(out, ",\"raw_kind\":%u,\"flags\":\"0x%" PRIx64 "\"", e->raw_kind, e->flags);
    fprintf(out, ",\"debug\":%s,\"obfuscated\":%s", e->debug ? "true" : "false", e->obfuscated ? "true" : "false");
    if (e->identifier) {
        fputs(",\"identifier\":", out);
        json_string(out, e->identifier);
    }
    if (e->options) {
        fputs(",\"options\":", out);
        json_string(out, e->options);
    }
    putc('}', out);
}

static void json_object(renderer *r, const fc_object *o)
{
    json_state *s = r->state;
    FILE *out = r->out;
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
        fprintf(out, "%s\n {\"offset\":%" PRIu64 ",\"size\":%" PRIu64 ",\"section\":", i ? "," : "", c->offset, c->size);
        json_string(out, c->section);
        fputs(",\"origin\":", out);
        json_string(out, fc_origin_name(c->origin));
        fputs(",\"entries\":[", out);
        for (size_t j = 0; j < c->n_entries; j++) {
            fputs(j ? ",\n  " : "\n  ", out);
            json_entry(out, &c->entries[j]);
        }
        fputs("]}", out);
    }
    fputs("]}", out);
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
    fputs("]}\n", out);
    free(s->errors);
    free(s->error_paths);
    s->errors = s->error_paths = NULL;
    s->n_errors = 0;
}

renderer *render_json_new(FILE *out, FILE *err)
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
    r->state = s;
    fprintf(out, "{\"schema_version\":%d,\"fatcheck_version\":\"%s\",\n\"files\":[", SCHEMA_VERSION,
            FC_VERSION_STRING);
    return r;
}
