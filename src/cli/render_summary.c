/* render_summary.c - the default output: a few lines per file, readable at a glance even
 * for libraries with thousands of containers. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_view.h"
#include "stats.h"

#define WIDTH 80

typedef struct summary_state {
    bool advice_needed; /* some file fails on a target, or lacks what --arch-list builds */
} summary_state;

static void print_label(FILE *out, const fc_object *o)
{
    fputs(quoted(o->label), out);
}

static const char *kind_label(fc_image_kind k)
{
    switch (k) {
    case FC_IMAGE_CUBIN: return "cubin";
    case FC_IMAGE_PTX: return "ptx";
    case FC_IMAGE_LTOIR: return "ltoir";
    default: return "unknown";
    }
}

/* "N containers in .nv_fatbin" or "N containers in .nv_fatbin and __nv_relfatbin". */
static void print_where(FILE *out, const stats *s)
{
    char n[32];
    fprintf(out, "%s container%s", fmt_count(s->containers, n, sizeof n), s->containers == 1 ? "" : "s");
    for (size_t i = 0; i < s->n_sections; i++)
        fprintf(out, "%s%s", i == 0 ? " in " : i + 1 == s->n_sections ? " and " : ", ", escaped(s->sections[i].name));
}

/* One line per image kind: the count, then each architecture with its count, wrapped. */
static void print_kinds(FILE *out, const stats *s, const char *indent)
{
    static const fc_image_kind order[] = {FC_IMAGE_CUBIN, FC_IMAGE_PTX, FC_IMAGE_LTOIR, FC_IMAGE_UNKNOWN};
    for (size_t o = 0; o < sizeof order / sizeof *order; o++) {
        fc_image_kind k = order[o];
        if (!s->by_kind[k])
            continue;
        char n[32], col[64];
        int used = snprintf(col, sizeof col, "%s%-7s %6s ", indent, kind_label(k),
                            fmt_count(s->by_kind[k], n, sizeof n));
        fputs(col, out);
        int start = used;
        for (size_t i = 0; i < s->n_archs; i++) {
            const arch_count *a = &s->archs[i];
            if (a->kind != k)
                continue;
            fc_entry probe = {.kind = a->kind, .arch = a->arch, .variant = a->variant};
            char name[32], item[64];
            fc_entry_arch_name(name, sizeof name, &probe);
            /* With several PTX ISA versions in one file, say which PTX has which. */
            char isa[24] = "";
            if (a->kind == FC_IMAGE_PTX && s->n_isas > 1)
                snprintf(isa, sizeof isa, " (ISA %u.%u)", a->isa_major, a->isa_minor);
            int len = snprintf(item, sizeof item, " %s:%s%s", name, fmt_count(a->n, n, sizeof n), isa);
            if (used + len > WIDTH && used > start) {
                fprintf(out, "\n%*s", start, "");
                used = start;
            }
            fputs(item, out);
            used += len;
        }
        putc('\n', out);
    }
}

static void print_details(FILE *out, const stats *s, const char *indent)
{
    char n[32];
    fputs(indent, out);
    if (!s->entries) { /* every container a bare header: said, not an empty "stored:" */
        fputs("no images: its containers hold no entries\n", out);
        return;
    }
    int first = 1;
    if (s->n_isas) {
        fputs("PTX ISA", out);
        for (size_t i = 0; i < s->n_isas; i++)
            fprintf(out, "%s %u.%u", i ? "," : "", s->isas[i].major, s->isas[i].minor);
        first = 0;
    }
    fprintf(out, "%sstored:", first ? "" : "; ");
    static const fc_compression order[] = {FC_COMPRESSION_ZSTD, FC_COMPRESSION_LZ4, FC_COMPRESSION_NONE,
                                           FC_COMPRESSION_UNKNOWN};
    int any = 0;
    for (size_t i = 0; i < 4; i++) {
        size_t c = s->by_compression[order[i]];
        if (!c)
            continue;
        fprintf(out, "%s %s %s", any ? "," : "",
                order[i] == FC_COMPRESSION_NONE ? "uncompressed" : fc_compression_name(order[i]),
                fmt_count(c, n, sizeof n));
        any = 1;
    }
    if (s->debug)
        fprintf(out, "; %s with debug info", fmt_count(s->debug, n, sizeof n));
    putc('\n', out);
}

/* PTX modules kept as text, which the program loads itself: a block of their own. */
static void print_text(FILE *out, const stats *s)
{
    if (!s->containers)
        return;
    char n[32];
    fprintf(out, "  PTX kept as text, loaded by the program itself: %s module%s",
            fmt_count(s->containers, n, sizeof n), s->containers == 1 ? "" : "s");
    for (size_t i = 0; i < s->n_sections; i++)
        fprintf(out, "%s%s", i == 0 ? " in " : i + 1 == s->n_sections ? " and " : ", ", s->sections[i].name);
    putc('\n', out);
    print_kinds(out, s, "    ");
    print_details(out, s, "    ");
}

/* Cubins kept as data, which the program hands to the driver itself: a block of their own. */
static void print_cubins(FILE *out, const stats *s)
{
    if (!s->containers)
        return;
    char n[32];
    fprintf(out, "  cubins kept as data, loaded by the program itself: %s cubin%s",
            fmt_count(s->containers, n, sizeof n), s->containers == 1 ? "" : "s");
    for (size_t i = 0; i < s->n_sections; i++)
        fprintf(out, "%s%s", i == 0 ? " in " : i + 1 == s->n_sections ? " and " : ", ", escaped(s->sections[i].name));
    putc('\n', out);
    print_kinds(out, s, "    ");
}

/* Containers found outside the section table (elf_segments.c): what led to them. */
static void print_unlisted_where(FILE *out, const fc_object *o, const stats *s, size_t wrapper, size_t segment)
{
    print_where(out, s);
    if (!segment && o->format == FC_FORMAT_PE)
        fputs(", registered with the CUDA runtime: found through its registration records, not a section named "
              ".nv_fatb", out);
    else if (!segment)
        fputs(", registered with the CUDA runtime: found through its registration records and the program "
              "headers, not the section table", out);
    else if (!wrapper)
        fputs(", found by searching the loaded segments: no section table or registration record shows "
              "them", out);
    else
        fputs(", found through the program headers, not the section table", out);
}

static void summary_object(renderer *r, const fc_object *o, const fc_judgement *j)
{
    FILE *out = r->out;
    if (quiet_hides(r->cfg, o, j))
        return;
    stats reg = {0}, emb = {0}, unlisted = {0}, text = {0}, cubins = {0};
    size_t wrapper = 0, segment = 0;
    for (size_t i = 0; i < o->n_containers; i++) {
        fc_origin origin = o->containers[i].origin;
        wrapper += origin == FC_ORIGIN_WRAPPER;
        segment += origin == FC_ORIGIN_SEGMENT;
        stats_add(origin == FC_ORIGIN_EMBEDDED ? &emb
                  : origin == FC_ORIGIN_PTX_TEXT ? &text
                  : origin == FC_ORIGIN_EMBEDDED_CUBIN ? &cubins
                  : origin == FC_ORIGIN_WRAPPER || origin == FC_ORIGIN_SEGMENT ? &unlisted : &reg,
                  &o->containers[i]);
    }
    stats_sort(&reg);
    stats_sort(&emb);
    stats_sort(&unlisted);
    stats_sort(&text);
    stats_sort(&cubins);

    if (r->cfg->torch_ext)
        print_torch_header(out, r->cfg);
    if (o->format == FC_FORMAT_IMAGE) {
        print_image(out, o);
    } else {
        print_label(out, o);
    }
    if (o->format == FC_FORMAT_IMAGE) {
        /* said above */
    } else if (!o->n_containers) {
        fputs(": ", out);
        if (o->error)
            fputs("could not be decoded\n", out);
        else
            print_no_code(out, o);
    } else if (o->format == FC_FORMAT_DATA) {
        /* A file of no known format, searched whole: all it holds is plain data. */
        fputs(": a file of no known format, searched whole", out);
        if (emb.containers || (!cubins.containers && !text.containers)) {
            fputs(": ", out);
            print_where(out, &emb);
            fputs(" kept as data\n", out);
            print_kinds(out, &emb, "  ");
            print_details(out, &emb, "  ");
        } else {
            putc('\n', out);
        }
        print_cubins(out, &cubins);
        print_text(out, &text);
    } else if (o->format == FC_FORMAT_CUBIN || o->format == FC_FORMAT_PTX) {
        fprintf(out, ": %s file\n", o->format == FC_FORMAT_CUBIN ? "cubin" : "PTX");
        print_kinds(out, &reg, "  ");
        if (o->format == FC_FORMAT_PTX)
            print_details(out, &reg, "  ");
    } else {
        fputs(": ", out);
        if (reg.containers) {
            print_where(out, &reg);
            if (o->format == FC_FORMAT_FATBIN)
                fputs(" (bare fat binary)", out);
        } else if (unlisted.containers) {
            print_unlisted_where(out, o, &unlisted, wrapper, segment);
        } else if (o->registered_undecoded) {
            fputs("its registered code could not be decoded", out);
        } else {
            fputs("no containers registered with the CUDA runtime", out);
        }
        putc('\n', out);
        if (reg.containers) {
            print_kinds(out, &reg, "  ");
            print_details(out, &reg, "  ");
        }
        if (reg.containers && unlisted.containers) {
            fputs("  and ", out);
            print_unlisted_where(out, o, &unlisted, wrapper, segment);
            putc('\n', out);
        }
        if (unlisted.containers) {
            const char *indent = reg.containers ? "    " : "  ";
            print_kinds(out, &unlisted, indent);
            print_details(out, &unlisted, indent);
        }
        if (emb.containers) {
            fputs("  embedded as data, loaded by the library itself: ", out);
            print_where(out, &emb);
            putc('\n', out);
            print_kinds(out, &emb, "    ");
            print_details(out, &emb, "    ");
        }
        print_cubins(out, &cubins);
        print_text(out, &text);
    }
    if (o->n_containers && o->appended_size) {
        char count[32];
        fprintf(out, "  note: %s bytes appended after the %s image (at 0x%llx) were not read%s\n",
                fmt_count(o->appended_size, count, sizeof count), o->format == FC_FORMAT_PE ? "PE" : "ELF",
                (unsigned long long)o->appended_offset,
                o->appended_zip ? " (a zip: --packages reads it)" : "");
    }
    /* What print_no_code says of a file without code, said of one with code too: what lies
     * past a data section's first MiB was looked at only where a pointer leads. */
    if (o->n_containers && o->sections_searched_in_part) {
        char count[32];
        size_t n = o->sections_searched_in_part;
        /* (pointers are followed in ELF files only, elf_pointers.c: a PE image's note said
         * they were, review of 2026-12-08, rv45 F4) */
        if (o->format == FC_FORMAT_ELF)
            fprintf(out, "  note: %s data section%s searched only in %s first MiB and where pointers\n"
                         "    lead (--embedded searches them whole)\n",
                    fmt_count(n, count, sizeof count), n == 1 ? "" : "s", n == 1 ? "its" : "their");
        else
            fprintf(out, "  note: %s data section%s searched only in %s first MiB (--embedded\n"
                         "    searches them whole)\n",
                    fmt_count(n, count, sizeof count), n == 1 ? "" : "s", n == 1 ? "its" : "their");
    }
    if (j) {
        if (o->format != FC_FORMAT_IMAGE) /* an image's runtimes are listed with it */
            print_runtime(out, o, j);
        if (r->cfg->coverage)
            print_coverage(out, r->cfg, j);
        else
            print_verdicts(out, r->cfg, o, j);
        print_torch_fix(out, r->cfg, o, j);
    }
    if (advice_needed(r->cfg, j))
        ((summary_state *)r->state)->advice_needed = true;
    stats_free(&reg);
    stats_free(&emb);
    stats_free(&unlisted);
    stats_free(&text);
    stats_free(&cubins);
}

static void summary_error(renderer *r, const fc_error *e)
{
    (void)r;
    (void)e;
}

static void summary_nothing(renderer *r, const char *path)
{
    (void)r;
    (void)path;
}

/* The advice closes the report only when some file needs it. */
static void summary_finish(renderer *r)
{
    if (!r->cfg->quiet && ((summary_state *)r->state)->advice_needed)
        print_advice(r->out, r->cfg);
}

renderer *render_summary_new(FILE *out, const config *cfg)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r || !(r->state = calloc(1, sizeof(summary_state)))) {
        free(r);
        return NULL;
    }
    r->begin_input = summary_nothing;
    r->object = summary_object;
    r->error = summary_error;
    r->finish = summary_finish;
    r->out = out;
    r->cfg = cfg;
    if (!cfg->quiet)
        print_targets_header(out, cfg);
    return r;
}

void render_free(renderer *r)
{
    if (!r)
        return;
    free(r->state);
    free(r);
}
