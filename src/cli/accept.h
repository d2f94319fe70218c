/* accept.h - accepted exceptions (--accept FILE, docs/ci.md): verdicts a pipeline knows of
 * and accepts, each with its reason, so that --strict can hold for everything else. */
#ifndef FC_ACCEPT_H
#define FC_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>

#include "fatcheck.h"

/* One line of the file: files whose name matches PATTERN (fnmatch, '*' matching '/' too), on
 * targets of compute capability CC (0: any), with a verdict of STATUS or better (none accepts
 * partial too), are accepted for REASON. */
typedef struct accept_rule {
    char *pattern;
    unsigned cc;
    char *target;        /* as written: "sm_90", "H100", "*" */
    fc_verdict_status status; /* FC_VERDICT_PARTIAL or FC_VERDICT_NONE */
    size_t max_failing;  /* "partial:N": the most modules (and link inputs) that may fail, so
                            that one more failing is no longer accepted; 0: any number */
    char *reason;
    unsigned line;
    size_t used;         /* verdicts it accepted in this run; 0 at the end: stale */
    size_t withheld;     /* verdicts it matched but may not accept (the driver fails them):
                            not stale for it */
} accept_rule;

typedef struct accept_rules {
    char *path;          /* the file, as named */
    accept_rule *rules;
    size_t n;
} accept_rules;

/* Reads PATH's rules into *OUT. On error returns -1 with ERR set ("PATH:LINE: reason", or
 * "PATH: reason" when it cannot be read); *OUT is then empty. */
int accept_load(accept_rules *out, const char *path, char *err, size_t err_size);
/* Parses the rules in TEXT (LEN bytes) as if read from PATH; the same results. */
int accept_parse(accept_rules *out, const char *path, const char *text, size_t len, char *err, size_t err_size);
void accept_free(accept_rules *r); /* accepts NULL and empty rules */
/* A's status as written: "partial", "partial:2", "none"; in BUF. */
const char *accept_status_text(const accept_rule *a, char *buf, size_t size);

/* The first rule that accepts verdict STATUS of the file named LABEL on a target of compute
 * capability CC, FAILING of its modules and link inputs failing, its use counted; NULL when
 * none does (or STATUS is ok or no-code, which need no acceptance). R may be NULL. Where the
 * verdict may not be accepted (WITHHELD: the driver fails it; or more fail than the rule's
 * "partial:N" allows), the rule that would is counted as withheld and NULL returned. */
const accept_rule *accept_match(accept_rules *r, const char *label, unsigned cc, fc_verdict_status status,
                                size_t failing, bool withheld);

#endif
