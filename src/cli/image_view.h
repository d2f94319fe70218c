/* image_view.h - container images in the outputs (image_view.c). */
#ifndef FC_IMAGE_VIEW_H
#define FC_IMAGE_VIEW_H

#include "cli.h"
#include "json_writer.h"

/* "app:1.0: container image (linux/amd64, 3 layers)" */
void print_image_heading(FILE *out, const fc_object *o);
/* The image itself, for the summary: its name, platform and layers, what it requires of the
 * NVIDIA Container Toolkit, the CUDA runtimes it ships. */
void print_image(FILE *out, const fc_object *o, const judgement *j);
/* Target T's line about the container, when there is one to say (refused; or, for the image
 * itself, starts or unknown); LABEL names the target. True when it printed. */
bool print_container_verdict(FILE *out, const fc_object *o, const judgement *j, size_t t, const char *label);
/* ,"image":{...} for an object in an image (the image itself: what it declares). */
void json_image(jw *out, const fc_object *o);
/* ,"container_starts":...,"container_reason":"..." in a verdict of an object in an image. */
void json_container(jw *out, const fc_object *o, const verdict *v);

#endif
