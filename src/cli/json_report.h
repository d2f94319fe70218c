/* json_report.h - the --json document (docs/json.md), for every front end: the command's
 * --json and the Python package write it through the same code. */
#ifndef FC_JSON_REPORT_H
#define FC_JSON_REPORT_H

#include <stdio.h>

#include "cli.h"

typedef struct json_report json_report;

/* Starts a document on OUT for a run set up as CFG (which must outlive it); NULL when out of
 * memory. */
json_report *json_report_open(FILE *out, const config *cfg);
/* One file or member, judged as J (NULL when it could not be judged). */
void json_report_object(json_report *r, const fc_object *obj, const fc_judgement *j);
/* An input that produced no object: listed in the document's "errors". */
void json_report_error(json_report *r, const fc_error *err);
/* An input read whole that cannot show it was all there (fc_options.on_warning): listed in the
 * document's "warnings". */
void json_report_warning(json_report *r, const fc_error *warning);
/* Ends the document (errors, targets, advice), writes what is buffered, frees R. */
void json_report_close(json_report *r);

#endif
