/* oci_meta.c - which images an archive or a layout holds, from its metadata: docker save's
 * manifest.json, or an OCI image layout's index.json, their manifests and configs.
 *
 * docker save writes manifest.json, [{Config, RepoTags, Layers}], with the layers bottom first
 * and the config's rootfs.diff_ids giving each layer's digest (Docker 25 and later also write
 * an OCI layout beside it; manifest.json is read first, as `docker load` does). An OCI layout
 * (image-layout.md) has index.json, whose manifests name an image manifest or a further index
 * (a multi-platform image: one manifest per platform, linux/amd64 chosen unless told), and
 * every blob under blobs/ALG/HEX, its name its digest. Every blob read is checked against
 * the digest and size that name it. Metadata is small: each file is read whole, up to
 * META_LIMIT bytes.
 */
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grow.h"
#include "oci.h"
#include "oci_meta.h"

#define MAX_INDEX_DEPTH 4
#define MAX_IMAGES 64
#define MAX_LAYERS 1024
#define MAX_REQUIREMENTS 64

static const char *const index_types[] = {
    "application/vnd.oci.image.index.v1+json",
    "application/vnd.docker.distribution.manifest.list.v2+json",
};
static const char *const manifest_types[] = {
    "application/vnd.oci.image.manifest.v1+json",
    "application/vnd.docker.distribution.manifest.v2+json",
};

static bool one_of(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

void fc_oci_sha256(const uint8_t *data, size_t len, char out[80])
{
    struct sha256_ctx c;
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    sha256_update(&c, len, data);
    sha256_digest(&c, sizeof d, d);
    int k = snprintf(out, 80, "sha256:");
    for (size_t i = 0; i < sizeof d; i++)
        k += snprintf(out + k, 80 - (size_t)k, "%02x", d[i]);
}

static void add_line(char ***lines, size_t *n, size_t *cap, const char *fmt, va_list ap)
{
    char buf[700];
    vsnprintf(buf, sizeof buf, fmt, ap);
    char *copy = strdup(buf);
    if (copy && fc_grow_array((void **)lines, cap, *n + 1, sizeof **lines, 8))
        (*lines)[(*n)++] = copy;
    else
        free(copy);
}

static void meta_problem(fc_oci_meta *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void meta_problem(fc_oci_meta *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_line(&m->problems, &m->n_problems, &m->cap_problems, fmt, ap);
    va_end(ap);
}

static void image_problem(fc_oci_meta_image *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void image_problem(fc_oci_meta_image *im, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_line(&im->problems, &im->n_problems, &im->cap_problems, fmt, ap);
    va_end(ap);
}

static char *keep(fc_oci_meta_image *im, const char *s)
{
    if (!s)
        return NULL;
    char *copy = strdup(s);
    if (copy && fc_grow_array((void **)&im->strings, &im->cap_strings, im->n_strings + 1, sizeof *im->strings, 8)) {
        im->strings[im->n_strings++] = copy;
        return copy;
    }
    free(copy);
    im->nomem = true; /* a tag, its platform or digest lost: the image judged short (oom22) */
    return NULL;
}

/* "sha256:<64 hex>" (or another algorithm of the OCI spec's grammar) -> "blobs/ALG/HEX". False
 * for a digest no layout could hold (and that must not become a path). */
bool fc_oci_blob_path(const char *digest, char *out, size_t size)
{
    if (!digest)
        return false;
    const char *colon = strchr(digest, ':');
    if (!colon || colon == digest || !colon[1])
        return false;
    for (const char *p = digest; p < colon; p++)
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || strchr("+._-", *p)))
            return false;
    for (const char *p = colon + 1; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("=_-", *p)))
            return false;
    if (strncmp(digest, "sha256:", 7) == 0 && strlen(colon + 1) != 64)
        return false;
    return snprintf(out, size, "blobs/%.*s/%s", (int)(colon - digest), digest, colon + 1) < (int)size;
}

bool fc_oci_path_digest(const char *path, char out[80])
{
    if (strncmp(path, "blobs/sha256/", 13) == 0 && strlen(path + 13) == 64) {
        snprintf(out, 80, "sha256:%s", path + 13);
    } else if (strlen(path) == 64 + 5 && strcmp(path + 64, ".json") == 0) {
        snprintf(out, 80, "sha256:%.64s", path);
    } else {
        return false;
    }
    for (const char *p = out + 7; *p; p++)
        if (!isxdigit((unsigned char)*p))
            return false;
    return true;
}

/* Reads blob PATH and checks it against DIGEST and SIZE (when given). NULL when it cannot be
 * used; WHY says why. */
static json_t *load_json(const fc_oci_source *src, const char *path, const char *digest, int64_t size, char *why,
                         size_t why_size, char *digest_out)
{
    uint8_t *data = NULL;
    size_t len = 0;
    char reason[300];
    fc_status st = src->get(src->ctx, path, &data, &len, reason, sizeof reason);
    if (st != FC_OK) {
        snprintf(why, why_size, "%s", reason);
        return NULL;
    }
    char want[80], got[80];
    fc_oci_sha256(data, len, got);
    if (digest_out)
        snprintf(digest_out, 80, "%s", got);
    if ((digest && strncmp(digest, "sha256:", 7) == 0) || (!digest && fc_oci_path_digest(path, want))) {
        if (digest)
            snprintf(want, sizeof want, "%s", digest);
        if (strcmp(want, got) != 0) {
            snprintf(why, why_size, "its digest is %s, not %s", got, want);
            free(data);
            return NULL;
        }
    }
    if (size >= 0 && (uint64_t)size != len) {
        snprintf(why, why_size, "%zu bytes, not the %lld its descriptor gives", len, (long long)size);
        free(data);
        return NULL;
    }
    json_error_t je;
    errno = 0;
    json_t *j = json_loadb((const char *)data, len, 0, &je);
    int err = errno;
    free(data);
    /* jansson 2.14 drops a character its lexer could not append and parses on: under out of
     * memory a digest came out one character short ("its digest is ..., not ..."), or the
     * config was "not in the archive"; and a parse that failed said "not valid JSON:  (line
     * -1)" (oom22). */
    if (err == ENOMEM) {
        json_decref(j);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    if (!j)
        snprintf(why, why_size, "not valid JSON: %s (line %d)", je.text, je.line);
    return j;
}

static const char *str(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* ---- What the config declares -------------------------------------------------------------- */

/* strconv.ParseBool's true. */
static bool go_true(const char *v)
{
    static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (strcmp(v, yes[i]) == 0)
            return true;
    return false;
}

/* A run of digits at *P: its value (saturated), and whether it is one, with no leading zero
 * when STRICT. */
static bool number(const char **p, bool strict, unsigned long long *value)
{
    const char *q = *p;
    unsigned long long v = 0;
    while (isdigit((unsigned char)*q)) {
        v = v > (ULLONG_MAX - 9) / 10 ? ULLONG_MAX : v * 10 + (unsigned)(*q - '0');
        q++;
    }
    if (q == *p || (strict && q - *p > 1 && **p == '0'))
        return false;
    *p = q;
    *value = v;
    return true;
}

/* Dot-separated identifiers of [0-9A-Za-z-] at *P (a semantic version's pre-release or build);
 * NUMERIC_STRICT: an identifier of digits alone has no leading zero. */
static bool identifiers(const char **p, bool numeric_strict)
{
    const char *q = *p;
    for (;;) {
        const char *start = q;
        bool digits = true;
        while (isalnum((unsigned char)*q) || *q == '-')
            digits &= isdigit((unsigned char)*q++) != 0;
        if (q == start || (numeric_strict && digits && q - start > 1 && *start == '0'))
            return false;
        if (*q != '.')
            break;
        q++;
    }
    *p = q;
    return true;
}

/* CUDA_VERSION "12.4.1" -> "12.4" as the NVIDIA Container Toolkit reads it (internal/config/
 * image/cuda_image.go, parseMajorMinorVersion); false when it cannot, and the hook refuses the
 * container. Before 1.19.1 (NEWER false) it was golang.org/x/mod/semver: "v" then 1 to 3
 * numbers without leading zeros, a pre-release or build only after all three; from 1.19.1 it
 * is Masterminds/semver's NewVersion, which takes leading zeros ("12.04" is 12.4) and a
 * pre-release after any number of them. Both then want major and minor to fit 32 bits. */
static bool toolkit_major_minor(const char *v, bool newer, char *out, size_t size)
{
    const char *p = v;
    if (*p == 'v')
        p++;
    unsigned long long part[3] = {0, 0, 0};
    int n = 0;
    bool strict = !newer;
    if (!number(&p, strict, &part[n++]))
        return false;
    while (n < 3 && *p == '.') {
        p++;
        if (!number(&p, strict, &part[n++]))
            return false;
    }
    if (*p == '-' || *p == '+') {
        if (!newer && n < 3)
            return false;
        if (*p == '-' && (p++, !identifiers(&p, true)))
            return false;
        if (*p == '+' && (p++, !identifiers(&p, false)))
            return false;
    }
    if (*p || part[0] > UINT32_MAX || part[1] > UINT32_MAX)
        return false;
    snprintf(out, size, "%llu.%llu", part[0], part[1]);
    return true;
}

/* NVIDIA_DRIVER_CAPABILITIES as the toolkit's hook reads it (nvidia-container-runtime-hook,
 * container_config.go getDriverCapabilities; internal/config/image/capabilities.go): unset or
 * empty, the default utility,compute (every capability for a legacy image, when unset);
 * otherwise the names between commas, spaces trimmed, empty ones skipped. A name it does not
 * support (but "all") makes the hook panic: the container does not start. Without compute
 * (or all), nvidia-container-cli mounts no libcuda.so.1 (libnvidia-container). */
static void read_capabilities(fc_oci_meta_image *im, const char *v)
{
    static const char *const supported[] = {"compat32", "compute", "display", "graphics", "ngx", "utility", "video"};
    if (!v || !*v)
        return; /* the default, or every capability: compute is among them */
    char unknown[100] = "";
    bool all = false, compute = false;
    for (const char *p = v; *p;) {
        const char *end = strchr(p, ',');
        const char *a = p, *b = end ? end : p + strlen(p);
        p = end ? end + 1 : b;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        size_t k = (size_t)(b - a);
        bool known = k == 0;
        for (size_t i = 0; i < sizeof supported / sizeof *supported; i++)
            known |= strlen(supported[i]) == k && memcmp(supported[i], a, k) == 0;
        all |= k == 3 && memcmp(a, "all", 3) == 0;
        compute |= k == 7 && memcmp(a, "compute", 7) == 0;
        size_t u = strlen(unknown);
        if (!known && u + k + 2 < sizeof unknown)
            snprintf(unknown + u, sizeof unknown - u, "%s%.*s", u ? "," : "", (int)k, a);
    }
    char why[300];
    if (all)
        return;
    if (unknown[0]) {
        snprintf(why, sizeof why, "unsupported capabilities found in NVIDIA_DRIVER_CAPABILITIES=%.80s (%s)", v, unknown);
        im->pub.toolkit_refuses = keep(im, why);
    } else if (!compute) {
        snprintf(why, sizeof why, "NVIDIA_DRIVER_CAPABILITIES=%.80s leaves out compute: the NVIDIA Container Toolkit "
                 "mounts no libcuda.so.1 in the container, and every CUDA call fails", v);
        im->pub.toolkit_no_driver = keep(im, why);
    }
}

typedef struct env_var {
    const char *kv;   /* "NAME=value" */
    size_t name_len;
    size_t place;
} env_var;

static int by_name_then_place(const void *a, const void *b)
{
    const env_var *x = a, *y = b;
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->kv, y->kv, n);
    if (c || x->name_len != y->name_len)
        return c ? c : x->name_len < y->name_len ? -1 : 1;
    return (x->place > y->place) - (x->place < y->place);
}

static int by_place(const void *a, const void *b)
{
    const env_var *x = a, *y = b;
    return (x->place > y->place) - (x->place < y->place);
}

static void read_env(fc_oci_meta_image *im, json_t *config)
{
    json_t *env = json_object_get(json_object_get(config, "config"), "Env");
    if (!json_is_array(env))
        return;
    /* Later settings of a name win, as they do in the environment the container gets. */
    const char *require_cuda = NULL, *cuda_version = NULL, *disable = NULL, *capabilities = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(env, i, v) {
        const char *kv = json_is_string(v) ? json_string_value(v) : NULL;
        const char *eq = kv ? strchr(kv, '=') : NULL;
        if (!eq)
            continue;
        size_t k = (size_t)(eq - kv);
        if (k == 19 && strncmp(kv, "NVIDIA_REQUIRE_CUDA", k) == 0)
            require_cuda = eq + 1;
        else if (k == 12 && strncmp(kv, "CUDA_VERSION", k) == 0)
            cuda_version = eq + 1;
        else if (k == 22 && strncmp(kv, "NVIDIA_DISABLE_REQUIRE", k) == 0)
            disable = eq + 1;
        else if (k == 26 && strncmp(kv, "NVIDIA_DRIVER_CAPABILITIES", k) == 0)
            capabilities = eq + 1;
    }
    im->pub.driver_capabilities = keep(im, capabilities);
    bool legacy = cuda_version && *cuda_version && !(require_cuda && *require_cuda);
    read_capabilities(im, capabilities);
    im->pub.require_cuda = keep(im, require_cuda);
    im->pub.requirements_disabled = disable && go_true(disable);
    /* Every NVIDIA_REQUIRE_* but NVIDIA_REQUIRE_JETPACK*, in order, the last value of each. */
    size_t n = json_array_size(env), k = 0;
    env_var *vars = n ? malloc(n * sizeof *vars) : NULL;
    json_array_foreach(env, i, v) {
        const char *kv = json_is_string(v) ? json_string_value(v) : NULL;
        const char *eq = kv ? strchr(kv, '=') : NULL;
        if (vars && eq && strncmp(kv, "NVIDIA_REQUIRE_", 15) == 0 && strncmp(kv, "NVIDIA_REQUIRE_JETPACK", 22) != 0)
            vars[k++] = (env_var){kv, (size_t)(eq - kv), i};
    }
    /* By name, then place: the last of each name is the one set. */
    if (k > 1)
        qsort(vars, k, sizeof *vars, by_name_then_place);
    size_t kept = 0;
    for (size_t a = 0; a < k; a++)
        if (a + 1 == k || vars[a].name_len != vars[a + 1].name_len ||
            memcmp(vars[a].kv, vars[a + 1].kv, vars[a].name_len) != 0)
            vars[kept++] = vars[a];
    if (kept > 1)
        qsort(vars, kept, sizeof *vars, by_place);
    if (kept > MAX_REQUIREMENTS) {
        image_problem(im, "it sets %zu NVIDIA_REQUIRE_* variables; only the first %d are read, and whether the "
                      "NVIDIA Container Toolkit starts it is not judged", kept, MAX_REQUIREMENTS);
        im->pub.requirements_incomplete = true;
        kept = MAX_REQUIREMENTS;
    }
    for (size_t a = 0; a < kept; a++)
        if (fc_grow_array((void **)&im->reqs, &im->cap_reqs, im->n_reqs + 1, sizeof *im->reqs, 8) &&
            (im->reqs[im->n_reqs] = keep(im, vars[a].kv + vars[a].name_len + 1)))
            im->n_reqs++;
    free(vars);
    if (legacy && !im->pub.requirements_disabled) {
        /* A legacy image: its CUDA_VERSION is the requirement, read as each release of the
         * toolkit reads it; one it cannot read stops its hook ("failed to get requirements"). */
        char older[32], newer[32], req[80], why[300];
        bool old_ok = toolkit_major_minor(cuda_version, false, older, sizeof older);
        bool new_ok = toolkit_major_minor(cuda_version, true, newer, sizeof newer);
        if (!old_ok && !new_ok) {
            snprintf(why, sizeof why, "failed to get requirements: invalid CUDA version %.60s (CUDA_VERSION)",
                     cuda_version);
            if (!im->pub.toolkit_refuses)
                im->pub.toolkit_refuses = keep(im, why);
        } else {
            snprintf(req, sizeof req, "cuda>=%s", new_ok ? newer : older);
            if (fc_grow_array((void **)&im->reqs, &im->cap_reqs, im->n_reqs + 1, sizeof *im->reqs, 8) &&
                (im->reqs[im->n_reqs] = keep(im, req)))
                im->n_reqs++;
            if (!old_ok || !new_ok || strcmp(older, newer) != 0) {
                snprintf(why, sizeof why, "depends on the toolkit's release: CUDA_VERSION=%.60s is %s%s before 1.19.1 "
                         "and %s%s from 1.19.1 on", cuda_version, old_ok ? "cuda>=" : "refused", old_ok ? older : "",
                         new_ok ? "cuda>=" : "refused", new_ok ? newer : "");
                im->pub.toolkit_depends = keep(im, why);
            }
        }
    }
}

static void read_platform(fc_oci_meta_image *im, json_t *config)
{
    const char *os = str(config, "os"), *arch = str(config, "architecture"), *variant = str(config, "variant");
    if (!os || !arch || im->pub.platform)
        return;
    char p[128];
    snprintf(p, sizeof p, "%.40s/%.40s%s%.40s", os, arch, variant ? "/" : "", variant ? variant : "");
    im->pub.platform = keep(im, p);
}

/* ---- Names ---------------------------------------------------------------------------------- */

static void add_tag(fc_oci_meta_image *im, const char *tag)
{
    for (size_t i = 0; i < im->n_tags; i++)
        if (strcmp(im->tags[i], tag) == 0)
            return;
    char *t = keep(im, tag);
    if (t && im->n_tags < 64) {
        if (fc_grow_array((void **)&im->tags, &im->cap_tags, im->n_tags + 1, sizeof *im->tags, 8))
            im->tags[im->n_tags++] = t;
        else
            im->nomem = true;
    }
}

/* "docker.io/library/app:1.0" as Docker shows it: "app:1.0". */
static const char *short_name(const char *ref)
{
    if (strncmp(ref, "docker.io/library/", 18) == 0 && ref[18])
        return ref + 18;
    if (strncmp(ref, "docker.io/", 10) == 0 && ref[10])
        return ref + 10;
    return ref;
}

/* The name people know it by: its first tag, else its short digest. */
static void settle_name(fc_oci_meta_image *im)
{
    if (im->n_tags) {
        im->pub.name = im->tags[0];
    } else {
        char d[32], path[300];
        const char *dg = im->pub.digest;
        if (dg && fc_oci_blob_path(dg, path, sizeof path)) {
            const char *colon = strchr(dg, ':');
            snprintf(d, sizeof d, "%.*s:%.12s", (int)(colon - dg), dg, colon + 1);
        } else {
            snprintf(d, sizeof d, "(an image without a name)");
        }
        im->pub.name = keep(im, d);
    }
    im->pub.tags = (const char *const *)im->tags;
    im->pub.n_tags = im->n_tags;
    im->pub.requirements = (const char *const *)im->reqs;
    im->pub.n_requirements = im->n_reqs;
    im->pub.n_layers = im->n_layers;
}

static fc_oci_meta_image *new_image(fc_oci_meta *m)
{
    if (m->n_images >= MAX_IMAGES) {
        /* once: an index of 20,000 entries said it 19,936 times (rt12 F6) */
        if (!m->images_cut)
            meta_problem(m, "more than %d images; the rest are left out", MAX_IMAGES);
        m->images_cut = true;
        return NULL;
    }
    if (!fc_grow_array((void **)&m->images, &m->cap_images, m->n_images + 1, sizeof *m->images, 8)) {
        meta_problem(m, "out of memory");
        return NULL;
    }
    fc_oci_meta_image *im = &m->images[m->n_images++];
    memset(im, 0, sizeof *im);
    return im;
}

static bool add_layer(fc_oci_meta_image *im, const char *path, const char *digest, int64_t size, bool compressed_ok)
{
    if (im->n_layers >= MAX_LAYERS) {
        if (!im->layers_cut)
            image_problem(im, "more than %d layers; the rest are left out", MAX_LAYERS);
        im->layers_cut = true;
        return false;
    }
    if (!fc_grow_array((void **)&im->layers, &im->cap_layers, im->n_layers + 1, sizeof *im->layers, 8)) {
        im->nomem = true;
        return false;
    }
    fc_oci_layer_ref *r = &im->layers[im->n_layers++];
    memset(r, 0, sizeof *r);
    if (!(r->path = keep(im, path))) { /* a layer without its path crashed the reader (oom22) */
        im->n_layers--;
        image_problem(im, "out of memory: a layer is left out");
        return false;
    }
    snprintf(r->digest, sizeof r->digest, "%s", digest ? digest : "");
    r->size = size;
    r->diff_id = !compressed_ok;
    return true;
}

typedef struct platform {
    char os[40], arch[40], variant[40];
    bool given;
} platform;

/* A platform as containerd compares it (containerd/platforms' Normalize): lower case, the
 * architecture's other names (x86_64 is amd64, aarch64 arm64), and the variant a plain one
 * stands for (amd64's v1, arm64's v8) dropped. An index of [linux/x86_64, linux/amd64] runs the
 * first, and one of [linux/amd64/v3, linux/amd64] the second: rv30 F4. */
static void normalize_platform(platform *p)
{
    for (char *c = p->os; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    for (char *c = p->arch; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (strcmp(p->arch, "x86_64") == 0 || strcmp(p->arch, "x86-64") == 0)
        snprintf(p->arch, sizeof p->arch, "amd64");
    else if (strcmp(p->arch, "aarch64") == 0)
        snprintf(p->arch, sizeof p->arch, "arm64");
    else if (strcmp(p->arch, "i386") == 0)
        snprintf(p->arch, sizeof p->arch, "386");
    if ((strcmp(p->arch, "amd64") == 0 && strcmp(p->variant, "v1") == 0) ||
        (strcmp(p->arch, "arm64") == 0 && (strcmp(p->variant, "v8") == 0 || strcmp(p->variant, "8") == 0)))
        p->variant[0] = '\0';
}

static void parse_platform(const char *s, platform *p)
{
    memset(p, 0, sizeof *p);
    if (!s || !*s) {
        snprintf(p->os, sizeof p->os, "linux");
        snprintf(p->arch, sizeof p->arch, "amd64");
        return;
    }
    p->given = true;
    sscanf(s, "%39[^/]/%39[^/]/%39s", p->os, p->arch, p->variant);
    normalize_platform(p);
}

/* Whether GOT (os, architecture, variant as written; NULL: none) is WANT: EXACT, its variant
 * too (none asked for is the plain one), else where none was asked for, any variant. */
static bool same_platform(const char *os, const char *arch, const char *variant, const platform *want, bool exact)
{
    platform got = {0};
    if (!os || !arch)
        return false;
    snprintf(got.os, sizeof got.os, "%s", os);
    snprintf(got.arch, sizeof got.arch, "%s", arch);
    snprintf(got.variant, sizeof got.variant, "%s", variant ? variant : "");
    normalize_platform(&got);
    if (strcmp(got.os, want->os) != 0 || strcmp(got.arch, want->arch) != 0)
        return false;
    return strcmp(got.variant, want->variant) == 0 || (!exact && !want->variant[0]);
}

/* An image whose config names another platform than the one asked for is left out. */
static void check_platform(fc_oci_meta_image *im, const platform *want)
{
    if (!want->given || !im->pub.platform || !im->usable)
        return;
    platform got;
    parse_platform(im->pub.platform, &got);
    if (same_platform(got.os, got.arch, got.variant, want, false))
        return;
    im->usable = false;
    image_problem(im, "it is for %s, not the %s/%s%s%s asked for; not judged", im->pub.platform, want->os, want->arch,
                  want->variant[0] ? "/" : "", want->variant);
}

/* ---- docker save: manifest.json ------------------------------------------------------------ */

/* OBJ's member KEY as docker load's Go decoder finds it: a name that differs from it in ASCII
 * case at most ("layers"), as encoding/json matches names (rv15 7: an archive docker loads,
 * read here as no image, its whiteouts unapplied). Go takes the last of several in the file,
 * an order the parsed object does not keep: *AMBIGUOUS, and NULL, when there are two (rv16 2:
 * "Layers" and "layers" naming different layers). */
static json_t *go_field(json_t *obj, const char *key, bool *ambiguous)
{
    if (!json_is_object(obj))
        return NULL;
    const char *k;
    json_t *value, *found = NULL;
    json_object_foreach(obj, k, value)
        if (strcasecmp(k, key) == 0) {
            if (found) {
                *ambiguous = true;
                return NULL;
            }
            found = value;
        }
    return found;
}

static void read_docker(fc_oci_meta *m, const fc_oci_source *src, json_t *manifest, const platform *want)
{
    size_t i;
    json_t *e;
    json_array_foreach(manifest, i, e) {
        bool ambiguous = false;
        json_t *config_name = go_field(e, "Config", &ambiguous);
        const char *config_path = json_is_string(config_name) ? json_string_value(config_name) : NULL;
        json_t *layers = go_field(e, "Layers", &ambiguous);
        json_t *tags = go_field(e, "RepoTags", &ambiguous);
        if (ambiguous) {
            meta_problem(m, "manifest.json: entry %zu names Config, Layers or RepoTags twice, in two cases of "
                            "letters (docker load takes the last in the file); not judged", i + 1);
            continue;
        }
        if (!config_path || !json_is_array(layers)) {
            meta_problem(m, "manifest.json: entry %zu names no Config or Layers; left out", i + 1);
            continue;
        }
        fc_oci_meta_image *im = new_image(m);
        if (!im)
            return;
        size_t t;
        json_t *tag;
        json_array_foreach(tags, t, tag) {
            if (json_is_string(tag))
                add_tag(im, short_name(json_string_value(tag)));
        }
        char digest[80] = "", why[400];
        /* Its digest is the image ID: the config's name says it, or its bytes do. */
        json_t *config = load_json(src, config_path, NULL, -1, why, sizeof why, digest);
        if (fc_oci_path_digest(config_path, digest) || config)
            im->pub.digest = im->config_digest = keep(im, digest);
        if (!config) {
            image_problem(im, "config %s: %s; judged without what it declares", config_path, why);
        } else {
            read_env(im, config);
            read_platform(im, config);
        }
        json_t *diff_ids = config ? json_object_get(json_object_get(config, "rootfs"), "diff_ids") : NULL;
        size_t k;
        json_t *l;
        json_array_foreach(layers, k, l) {
            const char *path = json_is_string(l) ? json_string_value(l) : NULL;
            if (!path) {
                image_problem(im, "manifest.json: layer %zu is not named; left out", k + 1);
                continue;
            }
            /* docker load joins and cleans the name ("./ID/layer.tar", "x/../ID/layer.tar"):
             * such a layer was "not in the archive", judged without it (rt12 F8); one that
             * climbs out, or starts at '/', stays as it is, and is said to lie outside */
            char clean[1024];
            size_t clean_len;
            if (*path != '/' && fc_oci_normalize(path, clean, sizeof clean, &clean_len) && clean_len)
                path = clean;
            /* Its digest: from its name in Docker 25's layout, else the config's diff_ids (the
             * digest of the layer uncompressed, which docker save writes it as). */
            char d[80] = "";
            json_t *id = json_array_get(diff_ids, k);
            bool from_path = fc_oci_path_digest(path, d);
            if (!from_path && json_is_string(id))
                snprintf(d, sizeof d, "%s", json_string_value(id));
            add_layer(im, path, d, -1, from_path);
        }
        if (diff_ids && json_array_size(diff_ids) != json_array_size(layers))
            image_problem(im, "its config lists %zu layer digests for %zu layers", json_array_size(diff_ids),
                          json_array_size(layers));
        im->usable = true;
        check_platform(im, want);
        json_decref(config);
        settle_name(im);
    }
}

/* ---- OCI: index.json, indexes, manifests --------------------------------------------------- */

static void describe_platform(json_t *pf, char *buf, size_t size)
{
    const char *os = str(pf, "os"), *arch = str(pf, "architecture"), *variant = str(pf, "variant");
    snprintf(buf, size, "%.40s/%.40s%s%.40s", os ? os : "?", arch ? arch : "?", variant ? "/" : "", variant ? variant : "");
}

static bool platform_matches(json_t *pf, const platform *want, bool exact)
{
    return same_platform(str(pf, "os"), str(pf, "architecture"), str(pf, "variant"), want, exact);
}

/* BuildKit's attestation manifests (provenance, SBOM), which hold no file a container sees, by
 * the annotation BuildKit gives them. Their platform is unknown/unknown, but that alone is no
 * attestation: an image so labelled was left out unsaid (red-team review of 2026-12-05). */
static bool is_attestation(json_t *desc)
{
    const char *type = str(json_object_get(desc, "annotations"), "vnd.docker.reference.type");
    return type && strcmp(type, "attestation-manifest") == 0;
}

typedef struct oci_reader {
    fc_oci_meta *m;
    const fc_oci_source *src;
    platform want;
    const char *base; /* the layout's name, for tags given alone */
} oci_reader;

static void read_manifest(oci_reader *r, json_t *desc, const char *name, const char *tag)
{
    const char *digest = str(desc, "digest");
    json_t *size = json_object_get(desc, "size");
    char path[300], why[400];
    fc_oci_meta_image *im = new_image(r->m);
    if (!im)
        return;
    im->pub.digest = keep(im, digest);
    if (name)
        add_tag(im, short_name(name));
    else if (tag)
        add_tag(im, tag);
    json_t *pf = json_object_get(desc, "platform");
    if (json_is_object(pf)) {
        char p[128];
        describe_platform(pf, p, sizeof p);
        im->pub.platform = keep(im, p);
    }
    json_t *man = NULL;
    if (!fc_oci_blob_path(digest, path, sizeof path))
        image_problem(im, "its manifest's digest '%.100s' is not one a layout can hold", digest ? digest : "");
    else if (!(man = load_json(r->src, path, digest, json_is_integer(size) ? json_integer_value(size) : -1, why, sizeof why, NULL)))
        image_problem(im, "manifest %s: %s; not judged", path, why);
    if (!man) {
        settle_name(im);
        return;
    }
    json_t *cdesc = json_object_get(man, "config");
    const char *cdigest = str(cdesc, "digest");
    if (cdigest)
        im->config_digest = keep(im, cdigest);
    json_t *csize = json_object_get(cdesc, "size");
    json_t *config = NULL;
    if (!fc_oci_blob_path(cdigest, path, sizeof path))
        image_problem(im, "its config's digest '%.100s' is not one a layout can hold; judged without what it declares",
                      cdigest ? cdigest : "");
    else if (!(config = load_json(r->src, path, cdigest, json_is_integer(csize) ? json_integer_value(csize) : -1, why, sizeof why, NULL)))
        image_problem(im, "config %s: %s; judged without what it declares", path, why);
    if (config) {
        read_env(im, config);
        read_platform(im, config);
        json_decref(config);
    }
    json_t *layers = json_object_get(man, "layers");
    size_t i;
    json_t *l;
    json_array_foreach(layers, i, l) {
        const char *ld = str(l, "digest");
        json_t *ls = json_object_get(l, "size");
        if (!fc_oci_blob_path(ld, path, sizeof path)) {
            image_problem(im, "layer %zu's digest '%.100s' is not one a layout can hold; left out", i + 1, ld ? ld : "");
            continue;
        }
        add_layer(im, path, ld, json_is_integer(ls) ? json_integer_value(ls) : -1, true);
    }
    im->usable = true;
    check_platform(im, &r->want);
    json_decref(man);
    settle_name(im);
}

static void read_index(oci_reader *r, json_t *index, const char *name, const char *tag, unsigned depth, bool top);

/* A descriptor of an index: an image manifest, or another index to descend into. */
static void read_descriptor(oci_reader *r, json_t *desc, const char *name, const char *tag, unsigned depth)
{
    const char *type = str(desc, "mediaType");
    json_t *ann = json_object_get(desc, "annotations");
    const char *n = str(ann, "io.containerd.image.name"), *t = str(ann, "org.opencontainers.image.ref.name");
    if (n)
        name = n;
    if (t) {
        if (strchr(t, '/') || strchr(t, ':'))
            name = name ? name : t; /* a whole reference */
        else
            tag = t;
    }
    char composed[300];
    if (!name && tag && r->base) {
        snprintf(composed, sizeof composed, "%.200s:%.90s", r->base, tag);
        name = composed;
        tag = NULL;
    }
    if (one_of(type, manifest_types, 2)) {
        read_manifest(r, desc, name, tag);
    } else if (one_of(type, index_types, 2)) {
        const char *digest = str(desc, "digest");
        json_t *size = json_object_get(desc, "size");
        char path[300], why[400];
        json_t *idx = NULL;
        if (depth >= MAX_INDEX_DEPTH)
            meta_problem(r->m, "indexes nested deeper than %d; not followed", MAX_INDEX_DEPTH);
        else if (!fc_oci_blob_path(digest, path, sizeof path))
            meta_problem(r->m, "an index's digest '%.100s' is not one a layout can hold", digest ? digest : "");
        else if (!(idx = load_json(r->src, path, digest, json_is_integer(size) ? json_integer_value(size) : -1, why, sizeof why, NULL)))
            meta_problem(r->m, "%s: index %s: %s; not judged", name ? name : tag ? tag : "an image", path, why);
        if (idx) {
            read_index(r, idx, name, tag, depth + 1, false);
            json_decref(idx);
        }
    }
    /* Other artifacts (signatures, SBOMs) hold no filesystem. */
}

/* The config digest the manifest that descriptor D names holds, allocated, or NULL when its
 * blob cannot be read. */
static char *config_of(oci_reader *r, json_t *d)
{
    const char *digest = str(d, "digest");
    json_t *size = json_object_get(d, "size");
    char path[300], why[400];
    if (!fc_oci_blob_path(digest, path, sizeof path))
        return NULL;
    json_t *man = load_json(r->src, path, digest, json_is_integer(size) ? json_integer_value(size) : -1, why, sizeof why,
                            NULL);
    const char *c = man ? str(json_object_get(man, "config"), "digest") : NULL;
    char *out = c ? strdup(c) : NULL;
    json_decref(man);
    return out;
}

static void read_index(oci_reader *r, json_t *index, const char *name, const char *tag, unsigned depth, bool top)
{
    json_t *mans = json_object_get(index, "manifests");
    if (!json_is_array(mans)) {
        meta_problem(r->m, "an index without manifests");
        return;
    }
    size_t i;
    json_t *d;
    if (top) {
        /* Each entry of index.json is an image (or a multi-platform one) of its own. */
        json_array_foreach(mans, i, d) {
            json_t *pf = json_object_get(d, "platform");
            if (is_attestation(d))
                continue;
            if (r->want.given && json_is_object(pf) && !platform_matches(pf, &r->want, false)) {
                char p[128];
                describe_platform(pf, p, sizeof p);
                meta_problem(r->m, "index.json: entry %zu is for %s, not the %s/%s%s%s asked for; left out", i + 1, p,
                             r->want.os, r->want.arch, r->want.variant[0] ? "/" : "", r->want.variant);
                continue;
            }
            read_descriptor(r, d, name, tag, depth);
        }
        return;
    }
    /* A multi-platform image: the manifest for the platform asked for (linux/amd64 unless
     * told), or its only one. */
    json_t *chosen = NULL;
    size_t candidates = 0;
    char seen[400] = "";
    json_array_foreach(mans, i, d) {
        if (is_attestation(d))
            continue;
        candidates++;
        json_t *pf = json_object_get(d, "platform");
        char p[128];
        describe_platform(pf, p, sizeof p);
        size_t k = strlen(seen);
        snprintf(seen + k, sizeof seen - k, "%s%s", k ? ", " : "", p);
        if (!chosen && json_is_object(pf) && platform_matches(pf, &r->want, true))
            chosen = d;
    }
    /* (None of the plain variant: the first of another, as before.) */
    json_array_foreach(mans, i, d) {
        json_t *pf = json_object_get(d, "platform");
        if (!chosen && !is_attestation(d) && json_is_object(pf) && platform_matches(pf, &r->want, false))
            chosen = d;
    }
    if (!chosen && candidates == 1 && !r->want.given) {
        json_array_foreach(mans, i, d) {
            if (!is_attestation(d))
                chosen = d;
        }
    }
    if (!chosen) {
        meta_problem(r->m, "%s: no manifest for %s/%s%s%s (it has %s); choose one with --platform", name ? name : tag ? tag : "a multi-platform image",
                     r->want.os, r->want.arch, r->want.variant[0] ? "/" : "", r->want.variant, seen[0] ? seen : "none");
        return;
    }
    /* Another manifest for the very platform chosen, of another config, cannot be chosen with
     * --platform: said, not left among "its other platforms" (review of 2026-12-06, rt12 F5). */
    char mine[128];
    describe_platform(json_object_get(chosen, "platform"), mine, sizeof mine);
    size_t same = 0;
    char *mine_config = NULL;
    bool config_read = false;
    json_array_foreach(mans, i, d) {
        char p[128];
        if (d == chosen || is_attestation(d))
            continue;
        describe_platform(json_object_get(d, "platform"), p, sizeof p);
        if (strcmp(p, mine) != 0)
            continue;
        /* podman's and buildah's twin of another compression (zstd beside gzip) has the same
         * config: one image, whichever is pulled (rv12 F7) */
        if (!config_read)
            mine_config = config_of(r, chosen), config_read = true;
        char *config = config_of(r, d);
        same += !(mine_config && config && strcmp(mine_config, config) == 0);
        free(config);
    }
    free(mine_config);
    if (same) {
        meta_problem(r->m, "%s: %zu manifests for %s: the first would be judged, as containerd chooses it, and "
                           "--platform cannot choose the others; not judged",
                     name ? name : tag ? tag : "a multi-platform image", same + 1, mine);
        return;
    }
    /* The platforms left out are said with the one judged: an arm64 image holding code the
     * amd64 one lacks passed unsaid (red-team review of 2026-12-05). */
    char others[400] = "";
    json_array_foreach(mans, i, d) {
        if (d == chosen || is_attestation(d))
            continue;
        char p[128];
        describe_platform(json_object_get(d, "platform"), p, sizeof p);
        size_t k = strlen(others);
        snprintf(others + k, sizeof others - k, "%s%s", k ? ", " : "", p);
    }
    size_t before = r->m->n_images;
    read_descriptor(r, chosen, name, tag, depth);
    if (others[0] && r->m->n_images > before) {
        fc_oci_meta_image *im = &r->m->images[r->m->n_images - 1];
        im->pub.platforms_not_judged = keep(im, others);
    }
}

/* ---- Both ----------------------------------------------------------------------------------- */

static bool same_layers(const fc_oci_meta_image *a, const fc_oci_meta_image *b)
{
    if (a->n_layers != b->n_layers)
        return false;
    for (size_t i = 0; i < a->n_layers; i++)
        if (!a->layers[i].path || !b->layers[i].path || strcmp(a->layers[i].path, b->layers[i].path) != 0)
            return false;
    return true;
}

/* A docker save archive of Docker 25 and later holds an OCI layout too: docker load reads its
 * manifest.json, containerd's import (ctr, nerdctl, Docker's containerd image store) its
 * index.json. Where index.json names an image whose layers no image of manifest.json has, the
 * two disagree, and what containerd would run was not judged: said (a hostile archive whose
 * index.json named a CUDA layer manifest.json left out passed, exit 0: red-team review of
 * 2026-12-05). An index image whose blobs are missing (other platforms of a multi-platform
 * index, which docker save leaves out) is no disagreement. */
static void check_index_agrees(fc_oci_meta *m, const fc_oci_source *src, const char *base, const platform *want)
{
    char why[400];
    json_t *index = load_json(src, "index.json", NULL, -1, why, sizeof why, NULL);
    if (!index)
        return;
    fc_oci_meta other;
    memset(&other, 0, sizeof other);
    oci_reader r = {.m = &other, .src = src, .base = base, .want = *want};
    read_index(&r, index, NULL, NULL, 0, true);
    json_decref(index);
    for (size_t i = 0; i < other.n_images; i++) {
        const fc_oci_meta_image *o = &other.images[i];
        bool found = !o->usable;
        const fc_oci_meta_image *layers_of = NULL; /* manifest.json's image of its layers */
        for (size_t k = 0; k < m->n_images && !found; k++) {
            if (!same_layers(o, &m->images[k]))
                continue;
            layers_of = &m->images[k];
            /* and its config: what the container toolkit reads (NVIDIA_REQUIRE_CUDA, the
             * driver capabilities) comes from it (rt12 F3: the same layers under a config
             * requiring cuda>=14.0 passed) */
            found = !o->config_digest || !layers_of->config_digest ||
                    strcmp(o->config_digest, layers_of->config_digest) == 0;
        }
        if (!found && layers_of) {
            meta_problem(m, "index.json names an image (%s) with the layers of manifest.json's but another config "
                            "(%.80s, not %.80s): containerd would import it with what that config declares, docker "
                            "load would not; it is not judged",
                         o->pub.digest ? o->pub.digest : "no digest", o->config_digest, layers_of->config_digest);
            break;
        }
        if (!found) {
            meta_problem(m, "index.json names an image (%s) whose layers no image of manifest.json has: containerd "
                            "would import it, docker load would not; it is not judged",
                         o->pub.digest ? o->pub.digest : "no digest");
            break;
        }
    }
    fc_oci_meta_free(&other);
}

fc_oci_kind_of fc_oci_meta_read(fc_oci_meta *m, const fc_oci_source *src, const char *base, const char *platform_spec)
{
    memset(m, 0, sizeof *m);
    char why[400];
    platform want;
    parse_platform(platform_spec, &want);
    if (src->has(src->ctx, "manifest.json")) {
        json_t *man = load_json(src, "manifest.json", NULL, -1, why, sizeof why, NULL);
        if (man && json_is_array(man)) {
            read_docker(m, src, man, &want);
            json_decref(man);
            if (src->has(src->ctx, "index.json"))
                check_index_agrees(m, src, base, &want);
            return FC_OCI_DOCKER;
        }
        if (man)
            snprintf(why, sizeof why, "not a list of images");
        json_decref(man);
        if (!src->has(src->ctx, "index.json")) {
            meta_problem(m, "manifest.json: %s", why);
            return FC_OCI_DOCKER;
        }
    }
    if (!src->has(src->ctx, "index.json"))
        return FC_OCI_NOT_IMAGE;
    json_t *index = load_json(src, "index.json", NULL, -1, why, sizeof why, NULL);
    if (!index) {
        meta_problem(m, "index.json: %s", why);
        return FC_OCI_LAYOUT;
    }
    oci_reader r = {.m = m, .src = src, .base = base, .want = want};
    read_index(&r, index, NULL, NULL, 0, true);
    json_decref(index);
    return FC_OCI_LAYOUT;
}

void fc_oci_meta_free(fc_oci_meta *m)
{
    for (size_t i = 0; i < m->n_images; i++) {
        fc_oci_meta_image *im = &m->images[i];
        for (size_t k = 0; k < im->n_strings; k++)
            free(im->strings[k]);
        for (size_t k = 0; k < im->n_problems; k++)
            free(im->problems[k]);
        free(im->strings);
        free(im->problems);
        free(im->tags);
        free(im->reqs);
        free(im->layers);
        free(im->runtimes);
    }
    for (size_t i = 0; i < m->n_problems; i++)
        free(m->problems[i]);
    free(m->problems);
    free(m->images);
    memset(m, 0, sizeof *m);
}
