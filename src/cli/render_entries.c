/* render_entries.c - -l: one line per entry, under a heading per file. */
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "image_view.h"

static void entries_object(renderer *r, const fc_object *o, const fc_judgement *judged)
{
    /* listings show images, not verdicts; with --kernels, each image's kernels */
    const fc_judgement *kernels = r->cfg->judge.kernels ? judged : NULL;
    FILE *out = r->out;
    if (quiet_hides(r->cfg, o, judged))
        return;
    if (o->format == FC_FORMAT_IMAGE) { /* its files follow */
        print_image_heading(out, o);
        return;
    }
    fprintf(out, "%s:\n", quoted(o->label));
    if (o->n_containers)
        fprintf(out, "  %-10s %-16s %-7s %-13s %-7s %-5s %10s %10s  %s\n", "CONTAINER", "SECTION", "KIND",
                "ARCH", "VERSION", "STORE", "STORED", "SIZE", "NOTES");
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *c = &o->containers[i];
        for (size_t j = 0; j < c->n_entries; j++) {
            const fc_entry *e = &c->entries[j];
            char arch[32], ver[16], off[24];
            fc_entry_arch_name(arch, sizeof arch, e);
            snprintf(ver, sizeof ver, "%u.%u", e->version_major, e->version_minor);
            snprintf(off, sizeof off, "0x%" PRIx64, c->offset);
            const char *where = c->section ? escaped(c->section) : fc_origin_name(c->origin);
            fprintf(out, "  %-10s %-16s %-7s %-13s %-7s %-5s %10" PRIu64 " %10" PRIu64 " ", off, where,
                    fc_image_kind_name(e->kind), arch, e->version_major || e->version_minor ? ver : "-",
                    fc_compression_name(e->compression), e->stored_size, e->uncompressed_size);
            if (c->origin == FC_ORIGIN_EMBEDDED)
                fputs(" embedded", out);
            else if (c->origin == FC_ORIGIN_PTX_TEXT)
                fputs(" ptx_text", out);
            else if (c->origin == FC_ORIGIN_EMBEDDED_CUBIN)
                fputs(" embedded_cubin", out);
            else if (c->section && (c->origin == FC_ORIGIN_WRAPPER || c->origin == FC_ORIGIN_SEGMENT))
                fprintf(out, " %s", fc_origin_name(c->origin)); /* found outside the section table */
            if (e->debug)
                fputs(" debug", out);
            if (e->obfuscated)
                fputs(" obfuscated", out);
            if (e->kind == FC_IMAGE_UNKNOWN)
                fprintf(out, " kind=%u", e->raw_kind);
            if (e->identifier)
                fprintf(out, " id=%s", escaped(e->identifier));
            if (e->options)
                fprintf(out, " options=\"%s\"", escaped(e->options));
            putc('\n', out);
            const fc_kernel_list *kl = NULL;
            if (kernels)
                fc_judgement_kernels(&kl, kernels, i, j);
            if (kl && kl->arch_mismatch)
                fprintf(out, "      warning: the cubin's own header says sm_%u\n", kl->elf_arch);
            for (size_t k = 0; kl && k < kl->n; k++) {
                const fc_kernel *kn = &kl->items[k];
                fprintf(out, "      %s %s", kn->entry ? "kernel" : "device", escaped(kn->demangled));
                if (kn->registers >= 0)
                    fprintf(out, "  [%d registers", kn->registers);
                if (kn->shared_bytes >= 0)
                    fprintf(out, "%s%lld B shared", kn->registers >= 0 ? ", " : "  [", (long long)kn->shared_bytes);
                fputs(kn->registers >= 0 || kn->shared_bytes >= 0 ? "]\n" : "\n", out);
            }
        }
    }
    if (!o->n_containers && !o->error) {
        fputs("  ", out);
        print_no_code(out, o);
    }
}

static void entries_error(renderer *r, const fc_error *e)
{
    (void)r;
    (void)e;
}

static void entries_nothing(renderer *r, const char *path)
{
    (void)r;
    (void)path;
}

static void entries_finish(renderer *r)
{
    (void)r;
}

renderer *render_entries_new(FILE *out, const config *cfg)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->begin_input = entries_nothing;
    r->object = entries_object;
    r->error = entries_error;
    r->finish = entries_finish;
    r->out = out;
    r->cfg = cfg;
    return r;
}
