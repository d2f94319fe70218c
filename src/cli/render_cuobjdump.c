/* render_cuobjdump.c - --list-elf / --list-ptx, byte for byte as cuobjdump 13.0 prints them.
 *
 * What cuobjdump does, checked against its output (docs/cuobjdump.md):
 *  - it lists the containers of .nv_fatbin, or of __nv_relfatbin when there is no
 *    .nv_fatbin; bare fat binaries whole; never data embedded elsewhere;
 *  - "ELF file %4d: NAME" / "PTX file %4d: NAME", numbered separately, across all members;
 *  - NAME is STEM.N.ARCH.cubin|ptx, STEM the input's file name without its last extension;
 *    an entry with an identifier is named IDSTEM.ARCH.cubin instead (no number), and a
 *    standalone cubin STEM.ARCH.cubin;
 *  - an archive member's lines follow "\nmember PATH:MEMBER:", PATH made absolute.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef struct listing {
    int elf, ptx;          /* which kinds to list */
    unsigned n_elf, n_ptx; /* running numbers within the current input */
    size_t listed;         /* lines printed for the current input */
    char *input;           /* current input path */
} listing;

static void print_member_heading(FILE *out, const fc_object *o)
{
    bool relative = o->path[0] != '/';
    char *cwd = relative ? getcwd(NULL, 0) : NULL;
    if (relative && !cwd && errno == ENOMEM)
        oom_note(); /* the path below, relative, is not cuobjdump's: the run fails (oom.h) */
    char *path = relative ? str_printf("%s/%s", cwd ? cwd : "", o->path) : NULL;
    fprintf(out, "\nmember %s:%s:\n", quoted(path ? path : o->path), quoted(o->member));
    free(path);
    free(cwd);
}

static void list_entry(renderer *r, listing *l, const fc_object *o, const fc_entry *e)
{
    bool ptx = e->kind == FC_IMAGE_PTX;
    if ((ptx && !l->ptx) || (e->kind == FC_IMAGE_CUBIN && !l->elf) || (!ptx && e->kind != FC_IMAGE_CUBIN))
        return;
    unsigned n = ptx ? ++l->n_ptx : ++l->n_elf;
    char name[4200];
    cuobjdump_name(o, e, n, name, sizeof name);
    fprintf(r->out, "%s %4u: %s\n", ptx ? "PTX file" : "ELF file", n, quoted(name));
    l->listed++;
}

static void cuobjdump_object(renderer *r, const fc_object *o, const fc_judgement *verdicts)
{
    (void)verdicts; /* listings show images, not verdicts */
    listing *l = r->state;
    bool heading = o->member != NULL;
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *c = &o->containers[i];
        if (!cuobjdump_lists(o, c))
            continue;
        if (heading) {
            print_member_heading(r->out, o);
            heading = false;
        }
        for (size_t j = 0; j < c->n_entries; j++)
            list_entry(r, l, o, &c->entries[j]);
    }
}

static void end_input(renderer *r)
{
    listing *l = r->state;
    if (l->input && !l->listed)
        fprintf(r->err, "fatcheck: %s: no %s found\n", quoted(l->input),
                l->elf && l->ptx ? "ELF or PTX file" : l->elf ? "ELF file" : "PTX file");
    free(l->input);
    l->input = NULL;
}

static void cuobjdump_begin(renderer *r, const char *path)
{
    listing *l = r->state;
    end_input(r);
    l->n_elf = l->n_ptx = 0;
    l->listed = 0;
    if (!(l->input = strdup(path)))
        oom_note(); /* its "no ELF file found" could not be said */
}

static void cuobjdump_error(renderer *r, const fc_error *e)
{
    listing *l = r->state;
    l->listed++; /* the error already says why nothing was listed */
}

static void cuobjdump_finish(renderer *r)
{
    end_input(r);
}

renderer *render_cuobjdump_new(FILE *out, FILE *err, int list_elf, int list_ptx)
{
    renderer *r = calloc(1, sizeof *r);
    listing *l = calloc(1, sizeof *l);
    if (!r || !l) {
        free(r);
        free(l);
        return NULL;
    }
    l->elf = list_elf;
    l->ptx = list_ptx;
    r->begin_input = cuobjdump_begin;
    r->object = cuobjdump_object;
    r->error = cuobjdump_error;
    r->finish = cuobjdump_finish;
    r->out = out;
    r->err = err;
    r->state = l;
    return r;
}
