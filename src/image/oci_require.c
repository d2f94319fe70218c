/* oci_require.c - what an image asks of the NVIDIA Container Toolkit before its container may
 * start: NVIDIA_REQUIRE_* in its environment, read as the toolkit reads them.
 *
 * The toolkit's hook (nvidia-container-toolkit, internal/config/image/cuda_image.go) gathers
 * the values of every NVIDIA_REQUIRE_* variable but NVIDIA_REQUIRE_JETPACK*, adds
 * "cuda>=MAJOR.MINOR" for a legacy image (CUDA_VERSION set, NVIDIA_REQUIRE_CUDA not), and
 * drops them all when NVIDIA_DISABLE_REQUIRE is true; nvidia-container-cli then evaluates each
 * (libnvidia-container, src/cli/dsl.c) for every GPU given to the container and refuses to
 * start it at the first that fails: "unsatisfied condition: cuda>=12.4, please update your
 * driver to a newer version, or use an earlier cuda container". In one value, space-separated
 * terms are ORed and comma-separated factors ANDed, evaluated left to right, each stopping at
 * the first answer; a factor is PROPERTY OP VALUE with OP one of = != < <= > >=; cuda (the
 * driver's CUDA version), driver (its release) and arch (the GPU's compute capability) compare
 * as dotted numbers, brand (Tesla, GeForce, NVIDIA, ...) as a word, case ignored; a factor that
 * is not understood ("invalid expression") refuses the container when it is reached.
 *
 * fatcheck knows a target's compute capability, often its driver's CUDA version, sometimes the
 * driver release, never the brand: an unknown property may be either, and the answer is a
 * definite one only when every way it could go agrees.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "fatcheck.h"

/* What evaluating something may come to: any of these, together. */
enum { MAY_TRUE = 1, MAY_FALSE = 2, MAY_FAIL = 4 /* an invalid expression */ };

enum { PROP_CUDA = 1, PROP_DRIVER = 2, PROP_ARCH = 4, PROP_BRAND = 8 };

typedef struct eval {
    const fc_require_props *p;
    unsigned unknown;  /* properties whose not being known left the answer open */
    char bad[64];      /* the first invalid factor met */
} eval;

static bool valid_version(const char *s, size_t n)
{
    /* As dsl_compare_version accepts them: digits and dots, a number first, each small
     * enough for strtoumax. */
    if (n == 0 || !isdigit((unsigned char)s[0]))
        return false;
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.')
            run = 0;
        else if (!isdigit((unsigned char)s[i]) || ++run > 19)
            return false;
    }
    return true;
}

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE } op_t;

/* Compares dotted numbers A and B (both valid): <0, 0, >0; "12.4" == "12.4.0". */
static int compare_versions(const char *a, size_t an, const char *b, size_t bn)
{
    size_t i = 0, j = 0;
    while (i < an || j < bn) {
        unsigned long long x = 0, y = 0;
        while (i < an && a[i] != '.')
            x = x * 10 + (unsigned)(a[i++] - '0');
        while (j < bn && b[j] != '.')
            y = y * 10 + (unsigned)(b[j++] - '0');
        if (x != y)
            return x < y ? -1 : 1;
        while (i < an && a[i] == '.')
            i++;
        while (j < bn && b[j] == '.')
            j++;
    }
    return 0;
}

static bool holds(int cmp, op_t op)
{
    switch (op) {
    case OP_EQ: return cmp == 0;
    case OP_NE: return cmp != 0;
    case OP_LT: return cmp < 0;
    case OP_LE: return cmp <= 0;
    case OP_GT: return cmp > 0;
    case OP_GE: return cmp >= 0;
    }
    return false;
}

/* What "driver OP VALUE" may be for a release R with LO <= R < HI (HI NULL: no bound). */
static int range_factor(op_t op, const char *lo, const char *hi, const char *value, size_t vn)
{
    int at_lo = compare_versions(lo, strlen(lo), value, vn);                  /* LO vs VALUE */
    int at_hi = hi ? compare_versions(hi, strlen(hi), value, vn) : 1;         /* HI vs VALUE */
    bool all_below = at_hi <= 0;  /* every R < VALUE */
    bool none_below = at_lo >= 0; /* every R >= VALUE */
    switch (op) {
    case OP_GE: return none_below ? MAY_TRUE : all_below ? MAY_FALSE : MAY_TRUE | MAY_FALSE;
    case OP_LT: return all_below ? MAY_TRUE : none_below ? MAY_FALSE : MAY_TRUE | MAY_FALSE;
    case OP_GT: return at_lo > 0 ? MAY_TRUE : all_below ? MAY_FALSE : MAY_TRUE | MAY_FALSE;
    case OP_LE: return all_below ? MAY_TRUE : at_lo > 0 ? MAY_FALSE : MAY_TRUE | MAY_FALSE;
    case OP_EQ: return all_below || at_lo > 0 ? MAY_FALSE : MAY_TRUE | MAY_FALSE;
    case OP_NE: return all_below || at_lo > 0 ? MAY_TRUE : MAY_TRUE | MAY_FALSE;
    }
    return MAY_TRUE | MAY_FALSE;
}

static int fail(eval *ev, const char *f, size_t n)
{
    if (!ev->bad[0])
        snprintf(ev->bad, sizeof ev->bad, "%.*s", (int)(n < 60 ? n : 60), f);
    return MAY_FAIL;
}

/* One factor, "cuda>=12.4": what it may come to. */
static int factor(eval *ev, const char *f, size_t n)
{
    static const char opchars[] = "<>=!";
    size_t name = 0;
    while (name < n && !strchr(opchars, f[name]))
        name++;
    size_t ops = name;
    while (ops < n && strchr(opchars, f[ops]))
        ops++;
    static const struct { const char *s; op_t op; } table[] = {
        {"=", OP_EQ}, {"!=", OP_NE}, {"<", OP_LT}, {"<=", OP_LE}, {">", OP_GT}, {">=", OP_GE},
    };
    int op = -1;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strlen(table[i].s) == ops - name && memcmp(table[i].s, f + name, ops - name) == 0)
            op = (int)table[i].op;
    const char *value = f + ops;
    size_t vn = n - ops;
    if (name == 0 || op < 0 || vn == 0)
        return fail(ev, f, n);
    char prop[16];
    if (name >= sizeof prop)
        return fail(ev, f, n);
    for (size_t i = 0; i < name; i++)
        prop[i] = (char)tolower((unsigned char)f[i]);
    prop[name] = '\0';
    const fc_require_props *p = ev->p;
    char have[64] = "";
    unsigned which;
    if (strcmp(prop, "brand") == 0) {
        if (op != OP_EQ && op != OP_NE)
            return fail(ev, f, n);
        if (!p->brand || !*p->brand) {
            ev->unknown |= PROP_BRAND;
            return MAY_TRUE | MAY_FALSE;
        }
        bool same = strlen(p->brand) == vn && strncasecmp(p->brand, value, vn) == 0;
        return (op == OP_EQ) == same ? MAY_TRUE : MAY_FALSE;
    }
    if (strcmp(prop, "cuda") == 0) {
        which = PROP_CUDA;
        if (p->cuda > 0)
            snprintf(have, sizeof have, "%d.%d", p->cuda / 1000, p->cuda % 1000 / 10);
    } else if (strcmp(prop, "driver") == 0) {
        which = PROP_DRIVER;
        if (p->driver && valid_version(p->driver, strlen(p->driver)))
            snprintf(have, sizeof have, "%s", p->driver);
    } else if (strcmp(prop, "arch") == 0) {
        which = PROP_ARCH;
        if (p->cc)
            snprintf(have, sizeof have, "%u.%u", p->cc / 10, p->cc % 10);
    } else {
        return fail(ev, f, n);
    }
    if (!valid_version(value, vn))
        return fail(ev, f, n);
    const char *lo, *hi;
    if (!have[0] && which == PROP_DRIVER && p->cuda > 0 && fc_cuda_release_range(p->cuda, &lo, &hi)) {
        /* The release is not known, but the CUDA version it reports bounds it. */
        int v = range_factor((op_t)op, lo, hi, value, vn);
        if (v == (MAY_TRUE | MAY_FALSE))
            ev->unknown |= which;
        return v;
    }
    if (!have[0]) {
        ev->unknown |= which;
        return MAY_TRUE | MAY_FALSE;
    }
    return holds(compare_versions(have, strlen(have), value, vn), (op_t)op) ? MAY_TRUE : MAY_FALSE;
}

/* One requirement: terms separated by spaces, factors by commas, walked as dsl_evaluate walks
 * them. Returns what it may come to: MAY_TRUE (met), MAY_FALSE (unmet), MAY_FAIL. */
static int requirement(eval *ev, const char *s)
{
    int out = 0;
    bool reach = true;      /* this term may be reached */
    bool any_term = false;  /* a term with factors was evaluated before */
    for (const char *t = s; reach;) {
        while (*t == ' ')
            t++;
        if (!*t)
            break;
        size_t tn = strcspn(t, " ");
        /* The factors of this term: the term holds if every one does; a false one ends it. */
        bool all_true = true;  /* every factor so far may be true */
        bool may_false = false, factors = false;
        for (size_t i = 0; i < tn && all_true;) {
            size_t fn = 0;
            while (i + fn < tn && t[i + fn] != ',')
                fn++;
            if (fn) {
                factors = true;
                int v = factor(ev, t + i, fn);
                out |= v & MAY_FAIL;
                may_false |= (v & MAY_FALSE) != 0;
                all_true = (v & MAY_TRUE) != 0;
            }
            i += fn + 1;
        }
        if (!factors) {
            /* dsl_evaluate leaves a term of empty factors with the answer it had: met when
             * it comes first, else the failure before it. */
            out |= any_term ? MAY_FALSE : MAY_TRUE;
            reach = false;
            break;
        }
        any_term = true;
        if (all_true)
            out |= MAY_TRUE;
        reach = may_false; /* the next term is looked at only when this one fails */
        t += tn;
    }
    if (reach)
        out |= any_term ? MAY_FALSE : MAY_TRUE;
    return out;
}

/* The toolkit's own words for a requirement that fails: the first term of it. */
static void unmet_message(const char *req, char *why, size_t why_size)
{
    while (*req == ' ')
        req++;
    size_t n = strcspn(req, " ");
    bool cuda = n >= 6 && strncmp(req, "cuda>=", 6) == 0;
    snprintf(why, why_size, "unsatisfied condition: %.*s%s", (int)(n < 200 ? n : 200), req,
             cuda ? ", please update your driver to a newer version, or use an earlier cuda container" : "");
}

static void unknown_message(unsigned unknown, char *why, size_t why_size)
{
    static const struct { unsigned bit; const char *what; } names[] = {
        {PROP_CUDA, "the driver's CUDA version"}, {PROP_DRIVER, "the driver release"},
        {PROP_ARCH, "the compute capability"}, {PROP_BRAND, "the GPU's brand"},
    };
    size_t k = (size_t)snprintf(why, why_size, "depends on ");
    unsigned left = unknown;
    for (size_t i = 0; i < sizeof names / sizeof *names && k < why_size; i++) {
        if (!(left & names[i].bit))
            continue;
        left &= ~names[i].bit;
        k += (size_t)snprintf(why + k, why_size - k, "%s%s", k > 11 ? (left ? ", " : " and ") : "", names[i].what);
    }
    if (k < why_size)
        snprintf(why + k, why_size - k, ", not known here");
}

fc_require_result fc_require_eval(const char *const *reqs, size_t n, const fc_require_props *p, char *why,
                                  size_t why_size)
{
    eval ev = {.p = p};
    if (why_size)
        why[0] = '\0';
    /* The values are checked in turn; the first that fails refuses the container. */
    bool may_reach = true;
    int outcomes = 0;
    const char *first_unmet = NULL;
    for (size_t i = 0; i < n && may_reach; i++) {
        int v = requirement(&ev, reqs[i] ? reqs[i] : "");
        outcomes |= v & (MAY_FALSE | MAY_FAIL);
        if (!first_unmet && (v & MAY_FALSE))
            first_unmet = reqs[i];
        may_reach = (v & MAY_TRUE) != 0;
    }
    if (may_reach)
        outcomes |= MAY_TRUE;
    if (outcomes == MAY_TRUE)
        return FC_REQUIRE_MET;
    if (outcomes == MAY_FALSE) {
        unmet_message(first_unmet ? first_unmet : "", why, why_size);
        return FC_REQUIRE_UNMET;
    }
    if (outcomes == MAY_FAIL) {
        snprintf(why, why_size, "invalid expression '%s'", ev.bad);
        return FC_REQUIRE_INVALID;
    }
    if ((outcomes & MAY_FAIL) && !(outcomes & MAY_TRUE))
        snprintf(why, why_size, "unmet, or refused as an invalid expression ('%s')", ev.bad);
    else if (outcomes & MAY_FAIL)
        snprintf(why, why_size, "may meet the invalid expression '%s'; ", ev.bad);
    size_t k = strlen(why);
    unknown_message(ev.unknown, why + k, why_size - k);
    return FC_REQUIRE_UNKNOWN;
}

bool fc_oci_compat_could_start(const fc_oci_image *img, int need, const fc_target *t, char *why, size_t why_size)
{
    if (!img || !img->compat || !need || !t->driver_cuda || t->driver_cuda >= need || img->compat->cuda < need)
        return false;
    const char *base = strrchr(img->compat->path, '/');
    snprintf(why, why_size, "depends on the GPU: the image's forward-compatibility %s (cuda-compat, CUDA %d.%d) "
             "starts its CUDA runtime only on data-center GPUs and the driver branches it supports",
             base ? base + 1 : img->compat->path, img->compat->cuda / 1000, img->compat->cuda % 1000 / 10);
    return true;
}

const char *fc_require_result_name(fc_require_result r)
{
    switch (r) {
    case FC_REQUIRE_MET: return "met";
    case FC_REQUIRE_UNMET: return "unmet";
    case FC_REQUIRE_INVALID: return "invalid";
    case FC_REQUIRE_NO_DRIVER: return "no-driver";
    case FC_REQUIRE_UNKNOWN: break;
    }
    return "unknown";
}

fc_require_result fc_oci_requirements_check(const fc_oci_image *img, const fc_target *t, char *why, size_t why_size)
{
    if (why_size)
        why[0] = '\0';
    if (!img)
        return FC_REQUIRE_MET;
    /* The hook reads the capabilities, then the requirements (a CUDA_VERSION it cannot read
     * stops it there), which nvidia-container-cli evaluates; the libraries come last. */
    if (img->toolkit_refuses) {
        snprintf(why, why_size, "%s", img->toolkit_refuses);
        return FC_REQUIRE_INVALID;
    }
    fc_require_result r = FC_REQUIRE_MET;
    if (!img->requirements_disabled && (img->n_requirements || img->requirements_incomplete)) {
        fc_require_props p = {.cuda = t->driver_cuda, .driver = t->driver[0] ? t->driver : NULL, .cc = t->cc};
        r = fc_require_eval(img->requirements, img->n_requirements, &p, why, why_size);
        if (r == FC_REQUIRE_MET && img->requirements_incomplete) {
            snprintf(why, why_size, "depends on NVIDIA_REQUIRE_* values past those read");
            r = FC_REQUIRE_UNKNOWN;
        }
    }
    if (r == FC_REQUIRE_UNMET || r == FC_REQUIRE_INVALID)
        return r;
    /* Refused or started without a driver, no CUDA code of it runs. */
    if (img->toolkit_no_driver) {
        snprintf(why, why_size, "%s", img->toolkit_no_driver);
        return FC_REQUIRE_NO_DRIVER;
    }
    if (img->toolkit_depends) {
        snprintf(why, why_size, "%s", img->toolkit_depends);
        return FC_REQUIRE_UNKNOWN;
    }
    return r;
}
