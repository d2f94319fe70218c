/* fleet.c - GPU inventories: `nvidia-smi --query-gpu=... --format=csv` output and
 * `kubectl get nodes -o json` with NVIDIA GPU Feature Discovery labels, grouped per GPU
 * model and driver so that one verdict speaks for every node alike. */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"

/* Adds COUNT GPUs of one node to the group of the same model, compute capability and
 * driver, or opens one. */
/* Whether G is the group of GPUs of product PRODUCT, compute capability CC and driver DRIVER. */
static bool alike(const fc_fleet_group *g, const char *product, unsigned cc, const char *driver, int driver_cuda)
{
    return g->target.cc == cc && g->target.driver_cuda == driver_cuda && strcmp(g->target.name, product) == 0 &&
           strcmp(g->driver, driver) == 0;
}

static fc_status add_gpus(fc_fleet_group *groups, size_t max, size_t *n, const char *product, unsigned cc,
                          const char *driver, int driver_cuda, unsigned count, bool new_node, char *err,
                          size_t err_size)
{
    for (size_t i = 0; i < *n; i++) {
        fc_fleet_group *g = &groups[i];
        if (alike(g, product, cc, driver, driver_cuda)) {
            g->gpus += count;
            g->nodes += new_node;
            return FC_OK;
        }
    }
    if (*n == max) {
        snprintf(err, err_size, "more than %zu kinds of GPU", max);
        return FC_ERR_LIMIT;
    }
    fc_fleet_group *g = &groups[(*n)++];
    memset(g, 0, sizeof *g);
    g->target.cc = cc;
    g->target.tegra = fc_cc_is_tegra(cc);
    g->target.driver_cuda = driver_cuda;
    snprintf(g->target.name, sizeof g->target.name, "%s", product);
    snprintf(g->driver, sizeof g->driver, "%s", driver);
    /* A release, not a CUDA version: what NVIDIA_REQUIRE_* "driver" compares. Read as --driver
     * reads it, so that a bare branch ("590") is its first release, 590.44.01, and meets
     * driver>=590.44 (review of 2026-12-05, rv9 6). */
    if (!fc_driver_release(driver, g->target.driver, sizeof g->target.driver))
        g->target.driver[0] = '\0';
    g->gpus = count;
    g->nodes = new_node; /* a CSV row says nothing of its host: "1 node" was said of any CSV (rv43 F8) */
    return FC_OK;
}

/* The group's source, as the targets' list shows it. */
static void describe(fc_fleet_group *g)
{
    char nodes[32] = "";
    if (g->nodes)
        snprintf(nodes, sizeof nodes, "%u node%s, ", g->nodes, g->nodes == 1 ? "" : "s");
    snprintf(g->target.source, sizeof g->target.source, "%s%u GPU%s: %.60s%s%.40s", nodes, g->gpus,
             g->gpus == 1 ? "" : "s", g->target.name[0] ? g->target.name : "?", g->driver[0] ? ", driver " : "",
             g->driver);
}

fc_status fc_fleet_merge(fc_fleet_group *groups, size_t *n, size_t max, const fc_fleet_group *more, size_t n_more,
                         char *err, size_t err_size)
{
    for (size_t k = 0; k < n_more; k++) {
        const fc_fleet_group *m = &more[k];
        size_t i = 0;
        while (i < *n && !alike(&groups[i], m->target.name, m->target.cc, m->driver, m->target.driver_cuda))
            i++;
        if (i == *n && *n == max) {
            snprintf(err, err_size, "more than %zu kinds of GPU in all inventories", max);
            return FC_ERR_LIMIT;
        }
        if (i == *n) {
            groups[(*n)++] = *m;
            continue;
        }
        groups[i].nodes += m->nodes;
        groups[i].gpus += m->gpus;
        describe(&groups[i]);
    }
    return FC_OK;
}

/* The compute capability from "9.0", else from the product name. */
static unsigned cc_of(const char *cap, const char *product)
{
    unsigned major, minor;
    char extra;
    if (cap && sscanf(cap, "%u.%u%c", &major, &minor, &extra) == 2 && major < 100 && minor < 10)
        return fc_cc_exists(major * 10 + minor) ? major * 10 + minor : 0;
    fc_target t;
    char err[256];
    return product && fc_target_parse(&t, product, err, sizeof err) == FC_OK ? t.cc : 0;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t k = strspn(s, " \t");
    memmove(s, s + k, n - k + 1);
}

#define MAX_LINE 4096
#define MAX_COLUMNS 128 /* nvidia-smi --query-gpu names about 190 properties */

static fc_status parse_csv(const char *text, fc_fleet_group *groups, size_t max, size_t *n, char *err,
                           size_t err_size)
{
    int col_name = 1, col_cap = 2, col_driver = 3; /* nvidia-smi's order without a header */
    int header_fields = 0;                           /* fields a header has; rows must too */
    char header[MAX_LINE] = "";                      /* its line, met again where inventories
                                                        of several hosts were joined (rv43 F8) */
    size_t line_no = 0, seen_rows = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        /* A line or a column past what is read is said, not cut: an 18-column nvidia-smi dump
         * lost its driver_version, and its GPUs were judged for a driver new enough for any PTX
         * (review of 2026-12-06, rt11 F3). */
        char line[MAX_LINE];
        line_no++;
        if (len >= sizeof line) {
            snprintf(err, err_size, "line %zu: longer than %zu bytes", line_no, sizeof line - 1);
            return FC_ERR_FORMAT;
        }
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        p = eol ? eol + 1 : p + len;
        trim(line);
        if (!line[0] || (header[0] && strcmp(line, header) == 0))
            continue;
        bool first = !seen_rows++; /* the first line that is not blank: a header, or a row */
        if (first)
            snprintf(header, sizeof header, "%s", line); /* kept only if it is a header */
        /* Every comma ends a field, an empty one too: strtok merged "H100,, 470.57.02" into two
         * fields, and the driver went unread (review of 2026-12-06, rv12 F4). */
        char *fields[MAX_COLUMNS];
        int nf = 0;
        for (char *f = line;;) {
            if (nf == MAX_COLUMNS) {
                snprintf(err, err_size, "line %zu: more than %d columns", line_no, MAX_COLUMNS);
                return FC_ERR_FORMAT;
            }
            char *comma = strchr(f, ',');
            if (comma)
                *comma = '\0';
            trim(f);
            fields[nf++] = f;
            if (!comma)
                break;
            f = comma + 1;
        }
        if (header_fields && nf != header_fields) {
            snprintf(err, err_size, "line %zu: %d fields where the header has %d", line_no, nf, header_fields);
            return FC_ERR_FORMAT;
        }
        if (first && nf && !isdigit((unsigned char)fields[0][0])) { /* a header */
            col_name = col_cap = col_driver = -1;
            header_fields = nf;
            for (int i = 0; i < nf; i++) {
                int *col = strcmp(fields[i], "name") == 0                 ? &col_name
                           : strncmp(fields[i], "compute_cap", 11) == 0   ? &col_cap
                           : strcmp(fields[i], "driver_version") == 0     ? &col_driver
                                                                           : NULL;
                /* A column given twice took its last value, and a driver column of another
                 * name ("driver") was passed over, the driver then assumed new enough for any
                 * PTX (review of 2026-12-08, rv43 F3). */
                if (col && *col >= 0) {
                    snprintf(err, err_size, "line %zu: column '%.40s' given twice", line_no, fields[i]);
                    return FC_ERR_FORMAT;
                }
                if (col) {
                    *col = i;
                } else if (strncmp(fields[i], "driver_model", 12) != 0 &&
                           (strcasestr(fields[i], "driver") || strcasestr(fields[i], "cuda"))) {
                    snprintf(err, err_size, "line %zu: column '%.40s' is not nvidia-smi's driver_version, the "
                             "one column a driver is read from", line_no, fields[i]);
                    return FC_ERR_FORMAT;
                }
            }
            if (col_name < 0 && col_cap < 0) {
                snprintf(err, err_size, "line %zu: a header without name or compute_cap", line_no);
                return FC_ERR_FORMAT;
            }
            continue;
        }
        if (first)
            header[0] = '\0'; /* no header: rows alone */
        const char *name = col_name >= 0 && col_name < nf ? fields[col_name] : "";
        const char *cap = col_cap >= 0 && col_cap < nf ? fields[col_cap] : NULL;
        const char *drv = col_driver >= 0 && col_driver < nf ? fields[col_driver] : "";
        unsigned cc = cc_of(cap, name);
        if (!cc) {
            snprintf(err, err_size, "line %zu: no compute capability for '%s'", line_no, name);
            return FC_ERR_FORMAT;
        }
        /* A driver the row names but that cannot be read is an error: taken as none named, it
         * was a driver new enough for any PTX, beside a row that names 396.44 (review of
         * 2026-12-05, rt7 F3). nvidia-smi's [N/A] says it does not know: none named. */
        int cuda = 0;
        char derr[256];
        /* (a row without the column, headerless nvidia-smi output of three, names none: rv44 F7) */
        if (col_driver >= 0 && col_driver < nf && !*drv) { /* taken as none named, a driver new enough (rv43 F3) */
            snprintf(err, err_size, "line %zu: driver_version is empty (nvidia-smi writes [N/A] where it "
                     "cannot tell)", line_no);
            return FC_ERR_FORMAT;
        }
        if (strcmp(drv, "[N/A]") == 0)
            drv = "";
        if (*drv && fc_driver_parse(&cuda, drv, derr, sizeof derr) != FC_OK) {
            snprintf(err, err_size, "line %zu: driver_version: %s", line_no, derr);
            return FC_ERR_FORMAT;
        }
        fc_status st = add_gpus(groups, max, n, name, cc, drv, cuda, 1, false, err, err_size);
        if (st != FC_OK)
            return st;
    }
    return FC_OK;
}

static const char *label(json_t *labels, const char *key)
{
    json_t *v = json_object_get(labels, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static fc_status parse_node(json_t *node, fc_fleet_group *groups, size_t max, size_t *n, char *err, size_t err_size)
{
    json_t *labels = json_object_get(json_object_get(node, "metadata"), "labels");
    if (!json_is_object(labels))
        labels = NULL; /* a node without labels may still show GPUs (rt11 F5) */
    const char *major = label(labels, "nvidia.com/gpu.compute.major");
    const char *minor = label(labels, "nvidia.com/gpu.compute.minor");
    const char *product = label(labels, "nvidia.com/gpu.product");
    const char *count = label(labels, "nvidia.com/gpu.count");
    if (!major && !product) {
        /* No GPU Feature Discovery labels. A node whose GPUs show otherwise (the device
         * plugin's capacity, GKE's or EKS's accelerator labels) cannot be judged, and is said:
         * dropping it judged a fleet without its V100s (review R9). */
        json_t *status = json_object_get(node, "status");
        json_t *capacity = json_object_get(status, "capacity"), *allocatable = json_object_get(status, "allocatable");
        const char *present = label(labels, "nvidia.com/gpu.present");
        const char *gke = label(labels, "cloud.google.com/gke-accelerator");
        const char *eks = label(labels, "k8s.amazonaws.com/accelerator");
        long long gpus = 0;
        const char *resource = "nvidia.com/gpu"; /* the resource that counted most */
        /* The device plugin's resources: nvidia.com/gpu, and with MIG's mixed strategy or
         * time-slicing renamed nvidia.com/mig-1g.10gb, nvidia.com/gpu.shared and the like: a
         * node showing only those was passed over (review of 2026-12-06, rt11 F5). */
        for (json_t *c = capacity; c; c = c == capacity ? allocatable : NULL) {
            const char *key;
            json_t *v;
            json_object_foreach(c, key, v)
            {
                if (strcmp(key, "nvidia.com/gpu") != 0 && strncmp(key, "nvidia.com/gpu.", 15) != 0 &&
                    strncmp(key, "nvidia.com/mig-", 15) != 0)
                    continue;
                long long k = json_is_string(v)    ? atoll(json_string_value(v))
                              : json_is_integer(v) ? json_integer_value(v)
                                                   : 0;
                if (k > gpus)
                    gpus = k, resource = key;
            }
        }
        if (gpus <= 0 && !count && !(present && strcmp(present, "true") == 0) && !gke && !eks)
            return FC_OK; /* a node without NVIDIA GPUs */
        const char *name = label(json_object_get(node, "metadata"), "name");
        char how_many[32] = "", shown[160] = "";
        bool plain = strcmp(resource, "nvidia.com/gpu") == 0;
        if (gpus > 0 && plain)
            snprintf(how_many, sizeof how_many, "%lld ", gpus);
        else if (count)
            snprintf(how_many, sizeof how_many, "%.20s ", count);
        if (gpus > 0 && !plain)
            snprintf(shown, sizeof shown, " (%.100s: %lld)", resource, gpus);
        else if (gke || eks)
            snprintf(shown, sizeof shown, " (%.100s)", gke ? gke : eks);
        snprintf(err, err_size, "node %s has %sNVIDIA GPUs%s but no GPU Feature Discovery labels that give "
                                "their compute capability (nvidia.com/gpu.product, nvidia.com/gpu.compute.major): "
                                "not judged", name ? name : "?", how_many, shown);
        return FC_ERR_FORMAT;
    }
    char cap[32] = "";
    if (major && minor)
        snprintf(cap, sizeof cap, "%s.%s", major, minor);
    unsigned cc = cc_of(cap[0] ? cap : NULL, product);
    if (!cc) {
        const char *name = label(json_object_get(node, "metadata"), "name");
        snprintf(err, err_size, "node %s: no compute capability for '%s'", name ? name : "?", product ? product : "?");
        return FC_ERR_FORMAT;
    }
    /* The driver: its release, and the CUDA version it supports (runtime-version labels,
     * else derived from the release). */
    char driver[64] = "";
    const char *full = label(labels, "nvidia.com/cuda.driver-version.full");
    const char *dmaj = label(labels, "nvidia.com/cuda.driver.major"), *dmin = label(labels, "nvidia.com/cuda.driver.minor"),
               *drev = label(labels, "nvidia.com/cuda.driver.rev");
    if (full)
        snprintf(driver, sizeof driver, "%s", full);
    else if (dmaj && dmin)
        snprintf(driver, sizeof driver, "%s.%s%s%s", dmaj, dmin, drev && *drev ? "." : "", drev ? drev : "");
    int cuda = 0;
    char derr[256];
    const char *runtime = label(labels, "nvidia.com/cuda.runtime-version.full");
    const char *rmaj = label(labels, "nvidia.com/cuda.runtime.major"), *rmin = label(labels, "nvidia.com/cuda.runtime.minor");
    char rt[32] = "";
    if (runtime)
        snprintf(rt, sizeof rt, "%s", runtime);
    else if (rmaj && rmin)
        snprintf(rt, sizeof rt, "%s.%s", rmaj, rmin);
    /* A runtime label that cannot be read, and no driver label, was a driver new enough for
     * any PTX (review of 2026-12-06, rt11 F6): an error, as for the driver's. */
    bool rt_read = rt[0] && fc_driver_parse(&cuda, rt, derr, sizeof derr) == FC_OK;
    if ((!rt_read && driver[0] && fc_driver_parse(&cuda, driver, derr, sizeof derr) != FC_OK) ||
        (!rt_read && rt[0] && !driver[0])) {
        const char *name = label(json_object_get(node, "metadata"), "name");
        snprintf(err, err_size, "node %s: its driver labels: %s", name ? name : "?", derr);
        return FC_ERR_FORMAT;
    }
    /* The labels come from one driver, so they agree unless some are stale or edited by hand:
     * a 470 release labelled CUDA 13.0 was judged as a CUDA 13.0 driver, "ok" for an H100 it
     * does not know (review of 2026-12-08, rv43 F2), and so were the older labels of a 470
     * driver beside newer ones of a 580 (rv44 F4: GPU Feature Discovery writes both sets). The
     * oldest CUDA any of them reads as stands, with the release that says it. */
    char parts[64] = "", rt_parts[32] = "";
    if (dmaj && dmin)
        snprintf(parts, sizeof parts, "%s.%s%s%s", dmaj, dmin, drev && *drev ? "." : "", drev ? drev : "");
    if (rmaj && rmin)
        snprintf(rt_parts, sizeof rt_parts, "%s.%s", rmaj, rmin);
    const char *readings[] = {driver, parts, rt, rt_parts}; /* releases first: a release shown */
    for (size_t i = 0; cuda && i < sizeof readings / sizeof *readings; i++) {
        int c = 0;
        if (readings[i][0] && fc_driver_parse(&c, readings[i], derr, sizeof derr) == FC_OK && c < cuda) {
            cuda = c;
            if (readings[i] == parts)
                snprintf(driver, sizeof driver, "%s", parts);
        }
    }
    /* A count is digits: "-8" was 4294967288 GPUs (rv43 F2). */
    unsigned gpus = 1;
    if (count) {
        char *end;
        errno = 0;
        unsigned long k = strtoul(count, &end, 10);
        if (!isdigit((unsigned char)*count) || *end || errno || k > 1000000) {
            const char *name = label(json_object_get(node, "metadata"), "name");
            snprintf(err, err_size, "node %s: nvidia.com/gpu.count '%.40s' is not a count of GPUs", name ? name : "?",
                     count);
            return FC_ERR_FORMAT;
        }
        gpus = (unsigned)k;
    }
    return add_gpus(groups, max, n, product ? product : "", cc, driver, cuda, gpus ? gpus : 1, true, err, err_size);
}

/* TEXT (LEN bytes) of UTF-16LE after its byte order mark, as UTF-8 in a new string (*OUT_LEN
 * bytes); NULL when out of memory. A lone surrogate becomes '?'. */
static char *from_utf16le(const unsigned char *text, size_t len, size_t *out_len)
{
    char *out = malloc(len / 2 * 3 + 1);
    size_t k = 0;
    for (size_t i = 2; out && i + 1 < len; i += 2) {
        unsigned u = text[i] | (unsigned)text[i + 1] << 8;
        if (u >= 0xd800 && u < 0xe000) {
            out[k++] = '?';
        } else if (u < 0x80) {
            out[k++] = (char)u;
        } else if (u < 0x800) {
            out[k++] = (char)(0xc0 | u >> 6);
            out[k++] = (char)(0x80 | (u & 0x3f));
        } else {
            out[k++] = (char)(0xe0 | u >> 12);
            out[k++] = (char)(0x80 | (u >> 6 & 0x3f));
            out[k++] = (char)(0x80 | (u & 0x3f));
        }
    }
    if (out)
        out[k] = '\0';
    *out_len = k;
    return out;
}

fc_status fc_fleet_parse(fc_fleet_group *groups, size_t *n, size_t max, const char *text, size_t len, char *err,
                         size_t err_size)
{
    *n = 0;
    /* UTF-16LE with its byte order mark: what Windows PowerShell 5.1 writes for `nvidia-smi ... >
     * fleet.csv` ("not a text file (it holds a NUL byte)": review of 2026-12-08, rv45 F7). */
    if (len >= 2 && (unsigned char)text[0] == 0xff && (unsigned char)text[1] == 0xfe) {
        size_t n8;
        char *utf8 = from_utf16le((const unsigned char *)text, len, &n8);
        if (!utf8)
            return FC_ERR_NOMEM;
        fc_status st = fc_fleet_parse(groups, n, max, utf8, n8, err, err_size);
        free(utf8);
        return st;
    }
    /* A UTF-8 byte order mark, as PowerShell writes `kubectl ... > nodes.json`: the JSON was
     * read as CSV, "a header without name or compute_cap" (rv43 F8). */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        text += 3, len -= 3;
    size_t k = 0;
    while (k < len && isspace((unsigned char)text[k]))
        k++;
    fc_status st;
    if (k < len && (text[k] == '{' || text[k] == '[')) {
        json_error_t je;
        /* A key given twice took its last value unsaid (rv43 F2: a 470 driver, then 580). */
        json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
        if (!root) {
            snprintf(err, err_size, "line %d: %s", je.line, je.text);
            return FC_ERR_FORMAT;
        }
        json_t *items = json_is_array(root) ? root : json_object_get(root, "items");
        st = FC_OK;
        if (json_is_array(items)) {
            size_t i;
            json_t *node;
            json_array_foreach(items, i, node)
            {
                if (!json_is_object(node)) { /* passed over unsaid (rv43 F8) */
                    snprintf(err, err_size, "items[%zu] is not a node", i);
                    st = FC_ERR_FORMAT;
                    break;
                }
                if ((st = parse_node(node, groups, max, n, err, err_size)) != FC_OK)
                    break;
            }
        } else {
            st = parse_node(root, groups, max, n, err, err_size); /* one node: kubectl get node X */
        }
        json_decref(root);
    } else {
        /* Rows after a NUL were never read (review of 2026-12-06, rt11 F4), as --accept says */
        if (memchr(text, '\0', len)) {
            snprintf(err, err_size, "not a text file (it holds a NUL byte)");
            return FC_ERR_FORMAT;
        }
        char *copy = malloc(len + 1);
        if (!copy)
            return FC_ERR_NOMEM;
        memcpy(copy, text, len);
        copy[len] = '\0';
        st = parse_csv(copy, groups, max, n, err, err_size);
        free(copy);
    }
    if (st == FC_OK && !*n) {
        snprintf(err, err_size, "no GPU in the inventory");
        return FC_ERR_FORMAT;
    }
    for (size_t i = 0; st == FC_OK && i < *n; i++)
        describe(&groups[i]);
    return st;
}
