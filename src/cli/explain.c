/* explain.c - `fatcheck --arch-list VALUE` with no files: what the list builds, and which
 * GPUs it serves natively, through compatible SASS, only through PTX JIT, or not at all. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* A container holding what the arch list builds, to ask the same rules as for real files. */
static size_t build_entries(const fc_arch_list *list, fc_entry *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < list->n && n + 2 <= max; i++) {
        const fc_arch_entry *a = &list->entries[i];
        fc_variant v = a->arch_specific ? FC_VARIANT_ARCH_SPECIFIC : FC_VARIANT_NONE;
        out[n++] = (fc_entry){.kind = FC_IMAGE_CUBIN, .arch = a->cc, .variant = v};
        if (a->ptx)
            out[n++] = (fc_entry){.kind = FC_IMAGE_PTX, .arch = a->cc, .variant = v};
    }
    return n;
}

static const char *how(fc_load l)
{
    if (l.result != FC_LOAD_SUCCESS)
        return "not at all";
    return l.via == FC_VIA_NATIVE ? "native SASS" : l.via == FC_VIA_COMPATIBLE ? "compatible SASS" : "PTX JIT only";
}

int explain_arch_list(FILE *out, const config *cfg, bool json)
{
    fc_entry entries[128];
    size_t n = build_entries(&cfg->arch_list, entries, 128);
    fc_container c = {.entries = entries, .n_entries = n, .origin = FC_ORIGIN_FATBIN_FILE};
    unsigned ccs[64];
    size_t nc = fc_known_ccs(ccs, 64);
    char arch[32], cc[8];
    if (json) {
        char key[64];
        snprintf(key, sizeof key, "{\"schema_version\":%d,\"arch_list\":", SCHEMA_VERSION);
        json_field(out, key, cfg->arch_list_text);
        fputs(",\"images\":[", out);
        for (size_t i = 0; i < n; i++) {
            fputs(i ? "," : "", out);
            json_string(out, fc_entry_arch_name(arch, sizeof arch, &entries[i]));
        }
        fputs("],\n\"gpus\":[", out);
    } else {
        fprintf(out, "TORCH_CUDA_ARCH_LIST=\"%s\" builds:\n  cubins:", escaped(cfg->arch_list_text));
        for (size_t i = 0; i < n; i++)
            if (entries[i].kind == FC_IMAGE_CUBIN)
                fprintf(out, " %s", fc_entry_arch_name(arch, sizeof arch, &entries[i]));
        fputs("\n  PTX:   ", out);
        bool any = false;
        for (size_t i = 0; i < n; i++)
            if (entries[i].kind == FC_IMAGE_PTX) {
                fprintf(out, " %s", fc_entry_arch_name(arch, sizeof arch, &entries[i]));
                any = true;
            }
        fputs(any ? "\n" : " none (add +PTX to the newest entry to serve later GPUs)\n", out);
        fputs("GPUs it serves (CUDA's rules; the PTX needs a driver as new as the compiler):\n", out);
        fprintf(out, "  %-5s %-17s %-11s %s\n", "CC", "with this list", "image", "products");
    }
    for (size_t k = 0; k < nc; k++) {
        fc_target t = {.cc = ccs[k], .tegra = fc_cc_is_tegra(ccs[k])};
        fc_load l = fc_predict_load(&c, &t, &cfg->judge.jit);
        const char *image = l.entry >= 0 && l.result == FC_LOAD_SUCCESS
                                ? fc_entry_arch_name(arch, sizeof arch, &entries[l.entry]) : "-";
        cc_text(ccs[k], cc, sizeof cc);
        if (json) {
            fprintf(out, "%s\n{\"compute_capability\":\"%s\",\"products\":", k ? "," : "", cc);
            json_string(out, fc_cc_products(ccs[k]));
            fputs(",\"result\":", out);
            json_string(out, fc_load_result_name(l.result));
            fputs(",\"via\":", out);
            json_string(out, l.result == FC_LOAD_SUCCESS ? fc_load_via_name(l.via) : NULL);
            fputs(",\"image\":", out);
            json_string(out, l.result == FC_LOAD_SUCCESS ? image : NULL);
            fputs("}", out);
        } else {
            fprintf(out, "  %-5s %-17s %-11s %s%s\n", cc, how(l), image, fc_cc_products(ccs[k]),
                    t.tegra ? " (Jetson)" : "");
        }
    }
    if (json)
        fputs("\n]}\n", out);
    return EXIT_OK;
}
