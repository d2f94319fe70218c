/* image_view.h - container images in the outputs (image_view.c). */
#ifndef FC_IMAGE_VIEW_H
#define FC_IMAGE_VIEW_H

#include "cli.h"

/* "app:1.0: container image (linux/amd64, 3 layers)" */
void print_image_heading(FILE *out, const fc_object *o);
/* For an image object whose index holds platforms other than the one judged: "its other
 * platforms are not judged: linux/arm64 (--platform chooses)", allocated; else NULL. The CI
 * formats said nothing of them (review of 2026-12-06, rt12 F2). */
char *platforms_sentence(const fc_object *o);
/* The image itself, for the summary: its name, platform and layers, what it requires of the
 * NVIDIA Container Toolkit, the CUDA runtimes it ships. */
void print_image(FILE *out, const fc_object *o);
/* Target TG's line about the container, when there is one to say (refused; or, for the image
 * itself, starts or unknown), from its verdict V; LABEL names the target. True when it printed.
 * (json_report.c writes the same in JSON.) */
/* The sentence of a refused container, after the target's label (no newline): "none, the
 * NVIDIA Container Toolkit does not start its container on a driver for CUDA 12.4: \"...\"". */
void print_container_refusal(FILE *out, const config *cfg, const fc_object *o, const fc_verdict *v, const fc_target *tg);
bool print_container_verdict(FILE *out, const config *cfg, const fc_object *o, const fc_verdict *v,
                             const fc_target *tg, const char *label);

#endif
