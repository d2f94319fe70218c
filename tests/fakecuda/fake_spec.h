/* fake_spec.h - the GPUs both stand-in driver libraries describe, read from the environment
 * so that one test sets up a machine that NVML and the Driver API agree on, as real ones do.
 *
 *   FAKE_CUDA_DEVICES  "SPEC;SPEC;..." in NVML's index order, each SPEC
 *                      "NAME:MAJOR.MINOR[:uuid=GPU-...][:bus=N][:mig=MIGUUID/NAME+MIGUUID/NAME...]"
 *                      (default uuid GPU-<index+1 in 8 hex digits>-1111-2222-3333-444444444444,
 *                      default bus index+1; a mig= field puts the GPU in MIG mode)
 */
#ifndef FAKE_SPEC_H
#define FAKE_SPEC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_MAX_DEVICES 16
#define FAKE_MAX_MIG 8

struct fake_dev {
    char name[96];
    int major, minor;
    char uuid[96];
    unsigned bus;
    int migmode;
    int n_mig;
    char mig_uuid[FAKE_MAX_MIG][96];
    char mig_name[FAKE_MAX_MIG][96];
};

static void fake_copy(char *dst, size_t size, const char *s, size_t len)
{
    if (len > size - 1)
        len = size - 1;
    memcpy(dst, s, len);
    dst[len] = '\0';
}

static void fake_parse_mig(struct fake_dev *d, const char *s, size_t len)
{
    while (len && d->n_mig < FAKE_MAX_MIG) {
        const char *plus = memchr(s, '+', len);
        size_t item = plus ? (size_t)(plus - s) : len;
        const char *slash = memchr(s, '/', item);
        size_t ulen = slash ? (size_t)(slash - s) : item;
        fake_copy(d->mig_uuid[d->n_mig], sizeof d->mig_uuid[0], s, ulen);
        if (slash)
            fake_copy(d->mig_name[d->n_mig], sizeof d->mig_name[0], slash + 1, item - ulen - 1);
        d->n_mig++;
        if (!plus)
            break;
        len -= item + 1;
        s = plus + 1;
    }
}

/* Reads FAKE_CUDA_DEVICES into OUT; returns how many devices. */
static int fake_devices(struct fake_dev *out, int max)
{
    const char *s = getenv("FAKE_CUDA_DEVICES");
    int n = 0;
    while (s && *s && n < max) {
        const char *end = strchr(s, ';');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        struct fake_dev *d = &out[n];
        memset(d, 0, sizeof *d);
        const char *colon = memchr(s, ':', len);
        if (!colon)
            break;
        fake_copy(d->name, sizeof d->name, s, (size_t)(colon - s));
        if (sscanf(colon + 1, "%d.%d", &d->major, &d->minor) != 2)
            break;
        snprintf(d->uuid, sizeof d->uuid, "GPU-%08x-1111-2222-3333-444444444444", (unsigned)n + 1);
        d->bus = (unsigned)n + 1;
        const char *f = memchr(colon + 1, ':', len - (size_t)(colon + 1 - s));
        while (f) {
            f++;
            size_t flen = (size_t)(s + len - f);
            const char *next = memchr(f, ':', flen);
            size_t this_len = next ? (size_t)(next - f) : flen;
            if (strncmp(f, "uuid=", 5) == 0)
                fake_copy(d->uuid, sizeof d->uuid, f + 5, this_len - 5);
            else if (strncmp(f, "bus=", 4) == 0)
                d->bus = (unsigned)strtoul(f + 4, NULL, 10);
            else if (strncmp(f, "mig=", 4) == 0) {
                d->migmode = 1;
                fake_parse_mig(d, f + 4, this_len - 4);
            }
            f = next;
        }
        n++;
        s = end ? end + 1 : NULL;
    }
    return n;
}

static int fake_env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

#endif
