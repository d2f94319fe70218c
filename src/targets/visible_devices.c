/* visible_devices.c - which of NVML's GPUs a CUDA program sees, and how it numbers them:
 * CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER as the CUDA C Programming Guide documents them
 * ("CUDA Environment Variables"). NVML ignores both; the Driver API applies them. Where the
 * runtime's answer cannot be reproduced from NVML's list (its FASTEST_FIRST heuristic on
 * GPUs of different models, MIG, undocumented entry forms), the result says to ask the
 * driver rather than guess. docs/detection.md lists the rules and what was checked on real
 * GPUs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "detect.h"

/* PCI order: domain, bus, device, as CUDA_DEVICE_ORDER=PCI_BUS_ID sorts. */
static int pci_before(const fc_gpu *a, const fc_gpu *b)
{
    if (a->domain != b->domain)
        return a->domain < b->domain;
    if (a->bus != b->bus)
        return a->bus < b->bus;
    return a->device < b->device;
}

/* ORDER[i]: the GPU the runtime numbers i, when its order is known. */
static void pci_order(const fc_gpu_list *list, unsigned *order)
{
    for (size_t i = 0; i < list->n; i++) {
        size_t j = i;
        for (; j > 0 && pci_before(&list->gpus[i], &list->gpus[order[j - 1]]); j--)
            order[j] = order[j - 1];
        order[j] = (unsigned)i;
    }
}

/* FASTEST_FIRST ranks GPUs by an undocumented speed heuristic. GPUs of one model tie, and
 * then the runtime keeps PCI order (checked on two H200s, docs/detection.md). */
static bool one_model(const fc_gpu_list *list)
{
    for (size_t i = 1; i < list->n; i++)
        if (list->gpus[i].cc != list->gpus[0].cc || strcmp(list->gpus[i].name, list->gpus[0].name) != 0)
            return false;
    return true;
}

static void ask_driver(fc_visible *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ask_driver(fc_visible *out, const char *fmt, ...)
{
    out->ask_driver = true;
    out->n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->note, sizeof out->note, fmt, ap);
    va_end(ap);
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

typedef enum entry_kind {
    ENTRY_INDEX,   /* "1": a number in the runtime's enumeration order */
    ENTRY_GPU,     /* "GPU-33ea3011": a GPU UUID or a prefix of one */
    ENTRY_MIG,     /* "MIG-5c1e...": a MIG device's UUID */
    ENTRY_INVALID, /* the documented "-1", or a word ("nonsense"): the list stops here */
    ENTRY_UNKNOWN, /* a form whose handling the guide leaves open (" 1", "01", "1x", "gpu-..") */
} entry_kind;

static entry_kind classify(const char *e)
{
    if (all_digits(e))
        return e[0] == '0' && e[1] ? ENTRY_UNKNOWN : ENTRY_INDEX;
    if (e[0] == '-' && all_digits(e + 1))
        return ENTRY_INVALID;
    if (strncmp(e, "GPU-", 4) == 0)
        return ENTRY_GPU;
    if (strncmp(e, "MIG-", 4) == 0)
        return ENTRY_MIG;
    if (strncasecmp(e, "GPU-", 4) == 0 || strncasecmp(e, "MIG-", 4) == 0)
        return ENTRY_UNKNOWN;
    if ((e[0] >= 'a' && e[0] <= 'z') || (e[0] >= 'A' && e[0] <= 'Z'))
        return ENTRY_INVALID;
    return ENTRY_UNKNOWN;
}

/* The GPU whose UUID starts with PREFIX; -1 when none, -2 when several. */
static int gpu_by_prefix(const fc_gpu_list *list, const char *prefix, bool ignore_case)
{
    int found = -1;
    size_t len = strlen(prefix);
    for (size_t i = 0; i < list->n; i++) {
        const char *u = list->gpus[i].uuid;
        if (ignore_case ? strncasecmp(u, prefix, len) == 0 : strncmp(u, prefix, len) == 0) {
            if (found >= 0)
                return -2;
            found = (int)i;
        }
    }
    return found;
}

static bool any_mig(const fc_gpu_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        if (list->gpus[i].mig_enabled)
            return true;
    return false;
}

static void apply(const fc_gpu_list *list, const char *visible, const char *order_env, fc_visible *out)
{
    memset(out, 0, sizeof *out);
    unsigned order[FC_MAX_GPUS];
    pci_order(list, order);
    bool pci = order_env && strcmp(order_env, "PCI_BUS_ID") == 0;
    if (order_env && !pci && strcmp(order_env, "FASTEST_FIRST") != 0) {
        ask_driver(out, "CUDA_DEVICE_ORDER=%.40s is neither FASTEST_FIRST nor PCI_BUS_ID", order_env);
        return;
    }
    bool order_known = pci || one_model(list);
    if (!visible) {
        if (!order_known) {
            ask_driver(out, "%s", "GPUs of different models: the CUDA runtime numbers them fastest first by "
                       "its own heuristic (CUDA_DEVICE_ORDER=PCI_BUS_ID would not)");
            return;
        }
        if (any_mig(list)) {
            ask_driver(out, "%s", "a GPU is in MIG mode and CUDA_VISIBLE_DEVICES names no MIG device");
            return;
        }
        for (size_t i = 0; i < list->n; i++)
            out->picks[out->n++] = (fc_visible_pick){order[i], -1};
        return;
    }
    if (!*visible) {
        snprintf(out->note, sizeof out->note, "CUDA_VISIBLE_DEVICES is set and empty: CUDA programs see no GPU");
        return;
    }
    size_t mig_picks = 0;
    const char *p = visible;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char e[128];
        if (len >= sizeof e) {
            ask_driver(out, "%s", "CUDA_VISIBLE_DEVICES has an entry too long to interpret");
            return;
        }
        memcpy(e, p, len);
        e[len] = '\0';
        fc_visible_pick pick = {0, -1};
        const char *invalid = NULL; /* why the entry ends the list */
        switch (classify(e)) {
        case ENTRY_INDEX: {
            if (any_mig(list)) {
                ask_driver(out, "a GPU is in MIG mode: how the CUDA runtime numbers devices then is its own");
                return;
            }
            if (!order_known) {
                ask_driver(out, "GPUs of different models: which GPU the CUDA runtime numbers %.40s depends on its "
                           "fastest-first heuristic (CUDA_DEVICE_ORDER=PCI_BUS_ID would not)", e);
                return;
            }
            unsigned long i = strtoul(e, NULL, 10);
            if (i >= list->n)
                invalid = "no such GPU";
            else
                pick.gpu = order[i];
            break;
        }
        case ENTRY_GPU: {
            int g = gpu_by_prefix(list, e, false);
            if (g == -1 && gpu_by_prefix(list, e, true) != -1) {
                ask_driver(out, "CUDA_VISIBLE_DEVICES entry '%.40s' matches a GPU only when case is ignored", e);
                return;
            }
            if (g == -1)
                invalid = "no GPU has that UUID";
            else if (g == -2)
                invalid = "the UUIDs of several GPUs start so"; /* a prefix names one GPU */
            else
                pick.gpu = (unsigned)g;
            break;
        }
        case ENTRY_MIG: {
            bool found = false;
            for (size_t i = 0; i < list->n && !found; i++)
                for (size_t m = 0; m < list->gpus[i].n_mig && !found; m++)
                    if (strcmp(list->gpus[i].mig[m].uuid, e) == 0) {
                        pick = (fc_visible_pick){(unsigned)i, (int)m};
                        found = true;
                    }
            if (!found && any_mig(list)) {
                /* A prefix, or the older MIG-GPU-<uuid>/<gi>/<ci> form, of a device there is. */
                ask_driver(out, "CUDA_VISIBLE_DEVICES entry '%.40s' names no MIG device exactly", e);
                return;
            }
            if (!found)
                invalid = "no such MIG device";
            mig_picks += found;
            break;
        }
        case ENTRY_INVALID:
            invalid = "not a GPU";
            break;
        case ENTRY_UNKNOWN:
            ask_driver(out, "CUDA_VISIBLE_DEVICES entry '%.40s' is of a form fatcheck does not interpret", e);
            return;
        }
        if (!invalid && pick.mig < 0 && list->gpus[pick.gpu].mig_enabled) {
            ask_driver(out, "CUDA_VISIBLE_DEVICES entry '%.40s' is a GPU in MIG mode", e);
            return;
        }
        /* A device named twice: driver 580 fails cuInit (CUDA_ERROR_INVALID_DEVICE) on "0,0" but
         * ends the list at the repeat on "1,GPU-<uuid of 1>" (docs/detection.md). */
        for (size_t k = 0; !invalid && k < out->n; k++)
            if (out->picks[k].gpu == pick.gpu && out->picks[k].mig == pick.mig) {
                ask_driver(out, "CUDA_VISIBLE_DEVICES names a device twice ('%.40s')", e);
                return;
            }
        if (invalid) {
            if (out->n)
                snprintf(out->note, sizeof out->note,
                         "CUDA_VISIBLE_DEVICES stops at '%.40s' (%s): CUDA programs see only the devices before it",
                         e, invalid);
            else
                snprintf(out->note, sizeof out->note,
                         "CUDA_VISIBLE_DEVICES starts with '%.40s' (%s): CUDA programs see no GPU", e, invalid);
            break;
        }
        if (out->n == FC_MAX_GPUS)
            break;
        out->picks[out->n++] = pick;
        if (!comma)
            break;
        p = comma + 1;
    }
    /* CUDA enumerates one MIG device per process (MIG User Guide, "CUDA Device Enumeration"):
     * which one, beside what else, is the driver's to say. */
    if (mig_picks && out->n > 1)
        ask_driver(out, "%s", "CUDA_VISIBLE_DEVICES names a MIG device beside other devices");
}

void fc_visible_devices(const fc_gpu_list *list, const char *visible, const char *order_env, fc_visible *out)
{
    apply(list, visible, order_env, out);
    /* The note quotes the environment, which is not trusted to be printable text. */
    for (char *c = out->note; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
            *c = '?';
}
