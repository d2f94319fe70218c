/* image_view.c - container images in the outputs: what an image declares, and whether the
 * NVIDIA Container Toolkit starts its container on each target. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "image_view.h"

/* Prints a sentence wrapped at 80 columns (wrap_print). */
static void wrap_printf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wrap_printf(FILE *out, const char *fmt, ...)
{
    char *line = NULL;
    size_t len = 0;
    FILE *s = memstream_open(&line, &len);
    if (!s)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s, fmt, ap);
    va_end(ap);
    if (memstream_close(s, &line))
        wrap_print(out, line);
    free(line);
}

static const char *cuda_text(int v, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", v / 1000, v % 1000 / 10);
    return buf;
}

/* The CUDA version a requirement's first term asks for ("cuda>=12.4"), or 0. */
static int required_cuda(const fc_oci_image *img)
{
    for (size_t i = 0; i < img->n_requirements; i++) {
        unsigned major, minor = 0;
        const char *r = img->requirements[i];
        while (*r == ' ')
            r++;
        if (sscanf(r, "cuda>=%u.%u", &major, &minor) >= 1 && major < 100 && minor < 10)
            return (int)(major * 1000 + minor * 10);
    }
    return 0;
}

char *platforms_sentence(const fc_object *o)
{
    if (o->format != FC_FORMAT_IMAGE || !o->in_image || !o->in_image->image->platforms_not_judged)
        return NULL;
    return str_printf("its other platforms are not judged: %s (--platform chooses)",
                      o->in_image->image->platforms_not_judged);
}

void print_image_heading(FILE *out, const fc_object *o)
{
    const fc_oci_image *img = o->in_image->image;
    fprintf(out, "%s: container image (", quoted(o->label));
    if (img->platform)
        fprintf(out, "%s, ", escaped(img->platform));
    fprintf(out, "%zu layer%s)\n", img->n_layers, img->n_layers == 1 ? "" : "s");
    if (img->platforms_not_judged)
        wrap_printf(out, "  its other platforms are not judged: %s (--platform chooses)\n",
                    escaped(img->platforms_not_judged));
}

void print_image(FILE *out, const fc_object *o)
{
    const fc_oci_image *img = o->in_image->image;
    char a[32], b[32];
    print_image_heading(out, o);
    if (img->requirements_disabled)
        fputs("  NVIDIA_DISABLE_REQUIRE is set: the NVIDIA Container Toolkit checks nothing\n", out);
    for (size_t i = 0; !img->requirements_disabled && i < img->n_requirements; i++) {
        const char *r = img->requirements[i];
        bool cuda = img->require_cuda && strcmp(r, img->require_cuda) == 0;
        wrap_printf(out, "  %s%s\n", cuda ? "NVIDIA_REQUIRE_CUDA=" : "the NVIDIA Container Toolkit requires ",
                    escaped(r));
    }
    for (size_t i = 0; i < img->n_runtimes; i++) {
        const fc_oci_runtime *rt = &img->runtimes[i];
        const char *drv = rt->needs ? fc_cuda_min_driver(rt->needs) : NULL;
        /* Its release as its name gives it: "12.4" from libcudart.so.12.4.127, "12" alone. */
        const char *base = strrchr(rt->path, '/');
        unsigned major = 0, minor = 0;
        int parts = sscanf(base ? base + 1 : rt->path, "libcudart.so.%u.%u", &major, &minor);
        if (parts == 2)
            snprintf(a, sizeof a, "%u.%u", major, minor);
        else
            snprintf(a, sizeof a, "%u", major);
        char need[96] = "";
        if (rt->needs)
            snprintf(need, sizeof need, "; it starts on a driver for CUDA %s or newer%s%s%s", cuda_text(rt->needs, b, sizeof b),
                     drv ? " (>= " : "", drv ? drv : "", drv ? ")" : "");
        wrap_printf(out, "  CUDA runtime: %s (CUDA %s%s)\n", quoted(rt->path), a, need);
    }
    if (img->compat)
        wrap_printf(out, "  forward compatibility (cuda-compat): %s (CUDA %s; data-center GPUs, on the driver "
                         "branches it supports)\n", quoted(img->compat->path), cuda_text(img->compat->cuda, a, sizeof a));
}

/* "  sm_90 (--gpu H100): the container starts (the driver, CUDA 12.6, meets what it requires)" */
void print_container_refusal(FILE *out, const config *cfg, const fc_object *o, const fc_verdict *v, const fc_target *tg)
{
    char a[32];
    if (v->container == FC_REQUIRE_NO_DRIVER) {
        fprintf(out, "%snone%s, %s", colour_on(cfg, "none"), colour_off(cfg), escaped(v->container_why));
        return;
    }
    fprintf(out, "%snone%s, the NVIDIA Container Toolkit does not start %s container%s%s: \"%s\"", colour_on(cfg, "none"),
            colour_off(cfg), o->format == FC_FORMAT_IMAGE ? "the" : "its", tg->driver_cuda ? " on a driver for CUDA " : "",
            tg->driver_cuda ? cuda_text(tg->driver_cuda, a, sizeof a) : "", escaped(v->container_why));
}

bool print_container_verdict(FILE *out, const config *cfg, const fc_object *o, const fc_verdict *v,
                             const fc_target *tg, const char *label)
{
    const fc_oci_image *img = o->in_image ? o->in_image->image : NULL;
    if (!img)
        return false;
    char *line = NULL;
    size_t len = 0;
    FILE *s = memstream_open(&line, &len);
    if (!s) /* noted (oom.h); said false, the verdict below is said in its place */
        return false;
    char a[32];
    bool said = true;
    if (v->container == FC_REQUIRE_UNMET || v->container == FC_REQUIRE_INVALID || v->container == FC_REQUIRE_NO_DRIVER) {
        fprintf(s, "  %s: ", label);
        print_container_refusal(s, cfg, o, v, tg);
        fputc('\n', s);
    } else if (o->format != FC_FORMAT_IMAGE || v->status != FC_VERDICT_NO_CODE) {
        said = false;
    } else if (v->container == FC_REQUIRE_UNKNOWN) {
        fprintf(s, "  %s: whether the NVIDIA Container Toolkit starts the container %s\n", label,
                escaped(v->container_why));
    } else if (img->n_requirements && !img->requirements_disabled) {
        fprintf(s, "  %s: the container starts (%s meets what it requires)\n", label,
                tg->driver_cuda ? "the driver" : "a driver assumed new enough");
    } else {
        said = false;
    }
    if (memstream_close(s, &line) && said)
        wrap_print(out, line);
    free(line);
    if (said && v->container == FC_REQUIRE_NO_DRIVER)
        fprintf(out, "    fix: add compute to NVIDIA_DRIVER_CAPABILITIES (\"compute,utility\")\n");
    if (said && (v->container == FC_REQUIRE_UNMET) && img) {
        int need = required_cuda(img);
        const char *drv = need ? fc_cuda_min_driver(need) : NULL;
        if (need && tg->driver_cuda >= need)
            /* The driver's CUDA is enough: what failed is another factor (driver>=590.44 on an
             * R580 driver), and a driver "for CUDA 13.0" was what the target had (rt7 F9). */
            fprintf(out, "    fix: a driver that meets the condition above, or an image that does not ask it\n");
        else if (need)
            fprintf(out, "    fix: install a driver for CUDA %s or newer%s%s%s, or use an image for CUDA %d.%d\n",
                    cuda_text(need, a, sizeof a), drv ? " (>= " : "", drv ? drv : "", drv ? ")" : "",
                    tg->driver_cuda / 1000, tg->driver_cuda % 1000 / 10);
    }
    return said;
}
