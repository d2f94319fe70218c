/* accept.c - the --accept file: reading its rules, and matching verdicts against them. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "accept.h"
#include "escape.h"

/* A rules file is written by people: a megabyte is tens of thousands of rules. */
#define ACCEPT_MAX_SIZE (1u << 20)

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The field at *P: up to the next blank, or "..." with \" and \\ escapes. Returns a copy
 * (NULL with *WHY set when the quotes do not close, or out of memory) and moves *P past it. */
static char *next_field(const char **p, const char *end, const char **why)
{
    const char *s = *p;
    while (s < end && blank(*s))
        s++;
    size_t cap = (size_t)(end - s) + 1, n = 0;
    char *out = malloc(cap);
    if (!out) {
        *why = "out of memory";
        return NULL;
    }
    if (s < end && *s == '"') {
        for (s++;; s++) {
            if (s == end) {
                free(out);
                *why = "a quoted field does not end";
                return NULL;
            }
            if (*s == '"')
                break;
            if (*s == '\\' && s + 1 < end && (s[1] == '"' || s[1] == '\\'))
                s++;
            out[n++] = *s;
        }
        s++;
    } else {
        while (s < end && !blank(*s))
            out[n++] = *s++;
    }
    out[n] = '\0';
    *p = s;
    return out;
}

static void rule_free(accept_rule *r)
{
    free(r->pattern);
    free(r->target);
    free(r->reason);
}

/* One line of rules (no newline): 0 and *R filled, 1 for a blank line or a comment, -1 with
 * ERR set. */
static int parse_line(accept_rule *r, const char *s, const char *end, char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    const char *p = s;
    while (p < end && blank(*p))
        p++;
    if (p == end || *p == '#')
        return 1;
    const char *why = NULL;
    char *status = NULL;
    if (!(r->pattern = next_field(&p, end, &why)) || !(r->target = next_field(&p, end, &why)) ||
        !(status = next_field(&p, end, &why))) {
        snprintf(err, err_size, "%s", why);
        goto fail;
    }
    while (p < end && blank(*p))
        p++;
    const char *reason_end = end;
    while (reason_end > p && blank(reason_end[-1]))
        reason_end--;
    bool words = false; /* a reason of quotes alone ('""') says nothing (review of 2026-12-03, M5) */
    for (const char *c = p; c < reason_end && !words; c++)
        words = isalnum((unsigned char)*c);
    if (!*r->pattern || !*r->target || !*status || !words) {
        snprintf(err, err_size, "expected PATTERN TARGET STATUS REASON (every rule says why it is accepted)");
        goto fail;
    }
    /* "partial:N" bounds what is accepted: a partial rule accepted any number of modules that
     * fail, so one that stopped loading later was accepted with the rest (review of
     * 2026-12-08, rv43 F4). */
    const char *digits = strncmp(status, "partial:", 8) == 0 ? status + 8 : NULL;
    char *num_end = NULL;
    unsigned long bound = digits && *digits >= '1' && *digits <= '9' ? strtoul(digits, &num_end, 10) : 0;
    if (strcmp(status, "partial") == 0) {
        r->status = FC_VERDICT_PARTIAL;
    } else if (bound && !*num_end && bound <= 1000000) {
        r->status = FC_VERDICT_PARTIAL;
        r->max_failing = bound;
    } else if (strcmp(status, "none") == 0) {
        r->status = FC_VERDICT_NONE;
    } else {
        snprintf(err, err_size, "the accepted status is partial, partial:N (at most N modules failing) or none, "
                 "not '%s'", escaped(status));
        goto fail;
    }
    if (strcmp(r->target, "*") != 0 && strcmp(r->target, "all") != 0) {
        fc_target t;
        if (fc_target_parse(&t, r->target, err, err_size) != FC_OK)
            goto fail;
        r->cc = t.cc;
    }
    if (!(r->reason = strndup(p, (size_t)(reason_end - p)))) {
        snprintf(err, err_size, "out of memory");
        goto fail;
    }
    free(status);
    return 0;
fail:
    free(status);
    rule_free(r);
    return -1;
}

int accept_parse(accept_rules *out, const char *path, const char *text, size_t len, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    unsigned line = 0;
    char why[400];
    if (!(out->path = strdup(path))) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    if (memchr(text, '\0', len)) {
        snprintf(err, err_size, "%s: not a text file (it holds a NUL byte)", quoted(path));
        goto fail;
    }
    /* A UTF-8 byte order mark (Windows editors) was the first rule's pattern, which then
     * matched nothing (rv43 F8). */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        text += 3, len -= 3;
    for (const char *s = text, *end = text + len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *eol = nl ? nl : end;
        line++;
        const char *stop = eol > s && eol[-1] == '\r' ? eol - 1 : eol;
        accept_rule r;
        int rc = parse_line(&r, s, stop, why, sizeof why);
        if (rc < 0) {
            snprintf(err, err_size, "%s:%u: %s", quoted(path), line, why);
            goto fail;
        }
        if (rc == 0) {
            accept_rule *more = fc_grow(out->rules, &cap, out->n + 1, sizeof *out->rules, 16);
            if (!more) {
                rule_free(&r);
                snprintf(err, err_size, "out of memory");
                goto fail;
            }
            out->rules = more;
            r.line = line;
            out->rules[out->n++] = r;
        }
        s = nl ? nl + 1 : end;
    }
    return 0;
fail:
    accept_free(out);
    return -1;
}

int accept_load(accept_rules *out, const char *path, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_size, "%s: cannot open: %s", quoted(path), strerror(errno));
        return -1;
    }
    char *buf = malloc(ACCEPT_MAX_SIZE + 1);
    size_t len = buf ? fread(buf, 1, ACCEPT_MAX_SIZE + 1, f) : 0;
    bool bad = !buf || ferror(f);
    fclose(f);
    if (bad || len > ACCEPT_MAX_SIZE) {
        snprintf(err, err_size, "%s: %s", quoted(path),
                 !buf ? "out of memory" : len > ACCEPT_MAX_SIZE ? "larger than 1 MiB: not a rules file" : "read error");
        free(buf);
        return -1;
    }
    int rc = accept_parse(out, path, buf, len, err, err_size);
    free(buf);
    return rc;
}

void accept_free(accept_rules *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        rule_free(&r->rules[i]);
    free(r->rules);
    free(r->path);
    memset(r, 0, sizeof *r);
}

const accept_rule *accept_match(accept_rules *r, const char *label, unsigned cc, fc_verdict_status status,
                                size_t failing, bool withheld)
{
    if (!r || !label || (status != FC_VERDICT_PARTIAL && status != FC_VERDICT_NONE))
        return NULL;
    for (size_t i = 0; i < r->n; i++) {
        accept_rule *a = &r->rules[i];
        /* a rule for none accepts partial too: fewer failing modules is no new problem */
        if ((a->cc && a->cc != cc) || (status == FC_VERDICT_NONE && a->status != FC_VERDICT_NONE) ||
            fnmatch(a->pattern, label, 0) != 0)
            continue;
        if (withheld || (a->max_failing && (status != FC_VERDICT_PARTIAL || failing > a->max_failing))) {
            a->withheld++;
            return NULL;
        }
        a->used++;
        return a;
    }
    return NULL;
}

const char *accept_status_text(const accept_rule *a, char *buf, size_t size)
{
    if (a->max_failing)
        snprintf(buf, size, "partial:%zu", a->max_failing);
    else
        snprintf(buf, size, "%s", fc_verdict_status_name(a->status));
    return buf;
}
