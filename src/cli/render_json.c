/* render_json.c - --json: the document of json_report.c, as the command's renderer. */
#include <stdlib.h>

#include "cli.h"
#include "json_report.h"

static void json_object(renderer *r, const fc_object *o, const fc_judgement *j)
{
    json_report_object(r->state, o, j);
}

static void json_error(renderer *r, const fc_error *e)
{
    json_report_error(r->state, e);
}

static void json_warning(renderer *r, const fc_error *w)
{
    json_report_warning(r->state, w);
}

static void json_begin(renderer *r, const char *path)
{
    (void)r;
    (void)path;
}

static void json_finish(renderer *r)
{
    json_report_close(r->state);
    r->state = NULL;
}

renderer *render_json_new(FILE *out, const config *cfg)
{
    renderer *r = calloc(1, sizeof *r);
    if (!r || !(r->state = json_report_open(out, cfg))) {
        free(r);
        return NULL;
    }
    r->begin_input = json_begin;
    r->object = json_object;
    r->error = json_error;
    r->warning = json_warning;
    r->finish = json_finish;
    r->out = out;
    r->cfg = cfg;
    return r;
}
