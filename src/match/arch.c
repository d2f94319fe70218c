/* arch.c - tables about GPUs: compute capabilities, products, families, PTX ISA and driver
 * versions, and TORCH_CUDA_ARCH_LIST. Sources are named in ../shared/docs and
 * docs/matching.md; every table is here, in one place. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch.h"
#include "fatcheck.h"

/* ---- Compute capabilities ---------------------------------------------------------- */

/* Jetson parts (CUDA C++ Programming Guide; targets.md). Binary code for them and for
 * desktop parts of the same major is not interchangeable. */
bool fc_cc_exists(unsigned cc)
{
    /* The CUDA Programming Guide's table, with the values ptxas 13.0 takes (sm_88). */
    static const unsigned real[] = {30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75,
                                    80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};
    for (size_t i = 0; i < sizeof real / sizeof *real; i++)
        if (real[i] == cc)
            return true;
    return false;
}

bool fc_cc_is_tegra(unsigned cc)
{
    /* 3.2: Jetson TK1 (targets.md's legacy table; review of 2026-12-05, rt7 F7) */
    return cc == 32 || cc == 53 || cc == 62 || cc == 72 || cc == 87 || cc == 101 || cc == 110;
}

typedef struct product {
    const char *pattern; /* lower-case words; '#' matches a digit, and a word ending in '*' any word
                            it begins, but not one whose number goes on ("h100*" is not "h1000",
                            "rtx 40##*" not "rtx 40900": review of 2026-12-07, rv38 F4) */
    unsigned cc;
    const char *name;    /* a product the pattern matches, as people write it (fc_known_products);
                            NULL for a second spelling of one named beside it */
} product;

/* NVIDIA's "CUDA GPUs" table (developer.nvidia.com/cuda-gpus), as summarised in
 * ../shared/docs/targets.md. More specific patterns win (see match_score). */
static const product products[] = {
    {"k80", 37, "K80"}, {"tesla k80", 37, NULL},
    {"gtx 750*", 50, "GTX 750 Ti"}, {"gtx 960m", 50, "GTX 960M"}, {"gtx 950m", 50, "GTX 950M"}, /* GM107 */
    {"gtx 9##*", 52, "GTX 980"}, {"titan x maxwell", 52, "TITAN X Maxwell"}, {"gtx titan x", 52, NULL},
    {"m60", 52, "Tesla M60"}, {"m40", 52, "Tesla M40"}, {"m6", 52, NULL}, {"m10", 50, "Tesla M10"},
    {"jetson nano", 53, "Jetson Nano"}, {"jetson tx1", 53, "Jetson TX1"},
    {"p100", 60, "P100"}, {"gp100", 60, "GP100"},
    {"gtx 10##*", 61, "GTX 1080"}, {"titan xp", 61, "TITAN Xp"}, {"titan x pascal", 61, "TITAN X Pascal"},
    {"p4", 61, "P4"}, {"p40", 61, "P40"}, {"gt 1030", 61, "GT 1030"}, {"quadro p###*", 61, NULL},
    {"quadro p####*", 61, "Quadro P4000"}, {"quadro gp100", 60, NULL}, {"mx150", 61, "MX150"}, {"mx230", 61, NULL},
    {"mx250", 61, "MX250"}, {"mx330", 61, NULL}, {"mx350", 61, NULL},
    {"jetson tx2", 62, "Jetson TX2"},
    {"v100", 70, "V100"}, {"v100*", 70, NULL}, {"titan v", 70, "TITAN V"}, {"gv100", 70, "GV100"},
    {"quadro gv100", 70, NULL},
    {"jetson agx xavier", 72, "Jetson AGX Xavier"}, {"jetson xavier*", 72, "Jetson Xavier NX"}, {"xavier", 72, NULL},
    {"t4", 75, "T4"}, {"rtx 20##*", 75, "RTX 2080"}, {"titan rtx", 75, "TITAN RTX"}, {"gtx 16##*", 75, "GTX 1660"},
    {"quadro rtx ####*", 75, "Quadro RTX 8000"}, {"quadro rtx a###*", 86, NULL}, {"quadro rtx a####*", 86, NULL},
    {"rtx 8000", 75, NULL}, {"t400", 75, "T400"}, {"t600", 75, "T600"}, {"t1000", 75, "T1000"},
    {"quadro t####*", 75, "Quadro T2000"}, {"mx450", 75, "MX450"}, {"mx550", 75, "MX550"},
    {"a100", 80, "A100"}, {"a100*", 80, NULL}, {"a30", 80, "A30"}, {"a800", 80, "A800"},
    {"a40", 86, "A40"}, {"a10", 86, "A10"}, {"a10g", 86, "A10G"}, {"a16", 86, "A16"}, {"a2", 86, "A2"},
    {"rtx a###*", 86, NULL}, {"rtx a####*", 86, "RTX A6000"}, {"rtx 30##*", 86, "RTX 3090"},
    /* the RTX A series as people write it, without "RTX" */
    {"a2000", 86, NULL}, {"a4000", 86, NULL}, {"a4500", 86, NULL}, {"a5000", 86, NULL}, {"a5500", 86, NULL},
    {"a6000", 86, NULL},
    {"a1000", 86, NULL}, /* the RTX A1000 (GA107) without "RTX": not an A100 ("a100*") */
    {"rtx 2050", 86, "RTX 2050"}, /* a laptop GA107, Ampere despite its name (review 8, A1) */
    {"mx570", 86, "MX570"},
    {"jetson agx orin", 87, "Jetson AGX Orin"}, {"jetson orin*", 87, "Jetson Orin Nano"}, {"orin", 87, NULL},
    {"l4", 89, "L4"}, {"l40", 89, "L40"}, {"l40s", 89, "L40S"}, {"l20", 89, "L20"}, {"rtx 40##*", 89, "RTX 4090"},
    /* the RTX Ada workstation parts by their numbers (rv43 F1: "rtx * ada" took "RTX A6000 Ada"
     * and "RTX 3090 Ada" for 8.9) */
    {"rtx 6000 ada", 89, "RTX 6000 Ada"}, {"rtx 5880 ada", 89, NULL}, {"rtx 5000 ada", 89, NULL},
    {"rtx 4500 ada", 89, NULL}, {"rtx 4000 ada", 89, NULL}, {"rtx 4000 sff ada", 89, NULL},
    {"rtx 2000* ada", 89, NULL}, {"rtx 3500 ada", 89, NULL}, {"rtx 3000 ada", 89, NULL}, {"rtx 1000 ada", 89, NULL},
    {"rtx 500 ada", 89, NULL},
    {"h100", 90, "H100"}, {"h100*", 90, NULL}, {"h200", 90, "H200"}, {"h200*", 90, NULL}, {"gh200", 90, "GH200"},
    {"h800", 90, "H800"}, {"h20", 90, "H20"},
    {"b100", 100, "B100"}, {"b200", 100, "B200"}, {"gb200", 100, "GB200"}, {"b300", 103, "B300"},
    {"gb300", 103, "GB300"},
    {"jetson thor", 110, "Jetson Thor"}, {"thor", 110, NULL}, {"jetson t5000", 110, "Jetson T5000"},
    {"jetson t4000", 110, "Jetson T4000"},
    {"rtx 50##*", 120, "RTX 5090"}, {"rtx pro ####* blackwell", 120, "RTX PRO 6000 Blackwell"}, {"rtx pro ####*", 120, NULL},
    {"rtx pro ###* blackwell", 120, NULL}, {"rtx pro ###*", 120, NULL},
    {"gb10", 121, "GB10"}, {"dgx spark", 121, "DGX Spark"},
};

/* Display names per compute capability, for people reading an arch list explained. */
static const struct {
    unsigned cc;
    const char *names;
} cc_products[] = {
    {37, "Tesla K80"},
    {50, "GTX 750, 750 Ti, 960M, 950M"},
    {52, "GTX 950-980 Ti, TITAN X (Maxwell)"},
    {53, "Jetson Nano, TX1"},
    {60, "Tesla P100"},
    {61, "GTX 10xx, TITAN Xp, Tesla P4, P40"},
    {62, "Jetson TX2"},
    {70, "V100, TITAN V"},
    {72, "Jetson AGX Xavier, Xavier NX"},
    {75, "T4, RTX 20xx, GTX 16xx, Quadro RTX"},
    {80, "A100, A30"},
    {86, "A40, A10, A16, A2, RTX A2000-A6000, RTX 30xx, RTX 2050"},
    {87, "Jetson AGX Orin, Orin NX, Orin Nano"},
    {89, "L4, L40, L40S, RTX 40xx, RTX Ada"},
    {90, "H100, H200, GH200"},
    {100, "B200, GB200"},
    {103, "B300, GB300"},
    {110, "Jetson Thor"},
    {120, "RTX 50xx, RTX PRO Blackwell"},
    {121, "GB10 (DGX Spark)"},
};

const char *fc_cc_products(unsigned cc)
{
    for (size_t i = 0; i < sizeof cc_products / sizeof *cc_products; i++)
        if (cc_products[i].cc == cc)
            return cc_products[i].names;
    return "";
}

size_t fc_known_ccs(unsigned *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof cc_products / sizeof *cc_products && n < max; i++)
        out[n++] = cc_products[i].cc;
    return n;
}

size_t fc_known_products(fc_product *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof products / sizeof *products; i++) {
        if (!products[i].name)
            continue;
        if (out && n < max)
            out[n] = (fc_product){products[i].name, products[i].cc};
        n++;
    }
    return n;
}

/* Lower-case words of S with vendor words dropped, separated by single spaces. */
static void normalise(const char *s, char *out, size_t size)
{
    /* "GRID T4-16Q", a vGPU, is its GPU's (review of 2026-12-07, rv40) */
    static const char *const vendor[] = {"nvidia", "geforce", "tesla", "grid"};
    size_t k = 0;
    char word[64];
    while (*s && k + 1 < size) {
        size_t w = 0;
        while (*s && !isalnum((unsigned char)*s))
            s++;
        while (*s && isalnum((unsigned char)*s) && w + 1 < sizeof word)
            word[w++] = (char)tolower((unsigned char)*s++);
        word[w] = '\0';
        if (!w)
            break;
        bool drop = false;
        for (size_t i = 0; i < sizeof vendor / sizeof *vendor; i++)
            drop |= strcmp(word, vendor[i]) == 0;
        /* "tesla k80" keeps meaning as "k80"; "tesla" alone is not a product */
        if (drop)
            continue;
        if (k && k + 1 < size)
            out[k++] = ' ';
        for (size_t i = 0; i < w && k + 1 < size; i++)
            out[k++] = word[i];
    }
    out[k] = '\0';
}

/* Whether the word W (WL bytes) matches the pattern word P (PL bytes): '#' a digit, a final
 * '*' the rest of the word, except a digit right after a digit (the model number going on). */
static bool word_matches(const char *p, size_t pl, const char *w, size_t wl)
{
    size_t i = 0;
    for (; i < pl && p[i] != '*'; i++)
        if (i == wl || (p[i] == '#' ? !isdigit((unsigned char)w[i]) : p[i] != w[i]))
            return false;
    if (i == pl)
        return wl == pl;
    return !(i > 0 && i < wl && isdigit((unsigned char)w[i - 1]) && isdigit((unsigned char)w[i]));
}

/* How well PATTERN matches the words of NAME: its words must match NAME's first words in
 * order (NAME may go on: "h100 80gb hbm3"). Literal words score 2, wildcards 1; -1 when it
 * does not match. */
static int match_score(const char *pattern, const char *name)
{
    int score = 0;
    const char *p = pattern, *n = name;
    while (*p) {
        size_t pl = strcspn(p, " "), nl = strcspn(n, " ");
        if (!nl || !word_matches(p, pl, n, nl))
            return -1;
        score += p[pl - 1] == '*' ? 1 : 2;
        p += pl + (p[pl] == ' ');
        n += nl + (n[nl] == ' ');
    }
    return score;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

/* "8.6", "86", "sm_86", "sm_90a", "compute_86": a compute capability, or 0. */
static unsigned parse_cc(const char *s)
{
    if (strncmp(s, "sm_", 3) == 0)
        s += 3;
    else if (strncmp(s, "compute_", 8) == 0)
        s += 8;
    unsigned major = 0, minor = 0;
    const char *p = s;
    if (!isdigit((unsigned char)*p))
        return 0;
    while (isdigit((unsigned char)*p) && major < 1000)
        major = major * 10 + (unsigned)(*p++ - '0');
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            return 0;
        minor = (unsigned)(*p++ - '0');
        if (major > 99)
            return 0;
        major = major * 10 + minor;
    } else if (major < 10) {
        return 0; /* "8" alone is not a compute capability */
    }
    if (*p == 'a' || *p == 'f')
        p++;
    if (*p)
        return 0;
    /* 30..129 covers every compute capability CUDA has had and the next few. */
    return major >= 30 && major < 130 ? major : 0;
}

/* Bare workstation names that several generations share: the GeForce patterns ("rtx 50*")
 * would take them for the wrong one (review R15), and so would they with words after them
 * that leave the generation open ("RTX 5000 Laptop" was 12.0: the Quadro RTX 5000 and the
 * RTX 5000 Ada come as laptop parts too). */
static const struct {
    const char *name;
    unsigned ccs[3];
    const char *choices;
} shared_names[] = {
    {"rtx 500", {89, 120}, "'RTX 500 Ada' (8.9), 'RTX PRO 500 Blackwell' (12.0)"},
    {"rtx 1000", {89, 120}, "'RTX 1000 Ada' (8.9), 'RTX PRO 1000 Blackwell' (12.0)"},
    {"rtx 2000", {89, 120}, "'RTX 2000 Ada' (8.9), 'RTX PRO 2000 Blackwell' (12.0)"},
    {"rtx 3000", {75, 89, 120}, "'Quadro RTX 3000' (7.5), 'RTX 3000 Ada' (8.9), 'RTX PRO 3000 Blackwell' (12.0)"},
    {"rtx 4000", {75, 89, 120}, "'Quadro RTX 4000' (7.5), 'RTX 4000 Ada' (8.9), 'RTX PRO 4000 Blackwell' (12.0)"},
    {"rtx 4500", {89, 120}, "'RTX 4500 Ada' (8.9), 'RTX PRO 4500 Blackwell' (12.0)"},
    {"rtx 5000", {75, 89, 120}, "'Quadro RTX 5000' (7.5), 'RTX 5000 Ada' (8.9), 'RTX PRO 5000 Blackwell' (12.0)"},
    {"rtx 6000", {75, 89, 120}, "'Quadro RTX 6000' (7.5), 'RTX 6000 Ada' (8.9), 'RTX PRO 6000 Blackwell' (12.0)"},
};

/* Words that settle which of a shared name's generations is meant, wherever they stand after
 * it ("RTX 4000 SFF Ada Generation"). Any other word ("laptop", "max q", "generation", "sff")
 * leaves it open. "Quadro", "PRO" and "A" come before the number: no shared name then. */
static const struct {
    const char *word;
    unsigned cc;
} generation_words[] = {{"ada", 89}, {"blackwell", 120}};

/* Where the words of NAME after SHARED begin when NAME begins with it, spaces inside it
 * optional ("rtx5000"); NULL when it does not. A number may run into letters ("rtx 2000e"),
 * not into digits ("rtx 5000" does not begin with "rtx 500"). */
static const char *after_shared(const char *name, const char *shared)
{
    const char *n = name;
    for (const char *s = shared; *s; s++) {
        if (*s == ' ') {
            n += *n == ' ';
            continue;
        }
        if (*n++ != *s)
            return NULL;
    }
    if (!*n || *n == ' ' || (isdigit((unsigned char)n[-1]) && isalpha((unsigned char)*n)))
        return n;
    return NULL;
}

/* NAME begins with a shared name: FC_OK with *CC the generation its other words settle and
 * *REST at the space before them (NULL: none), or FC_ERR_INVALID said in ERR when they do not
 * settle one. *CC is 0 for any other name. */
static fc_status shared_name(const char *name, const char *spec, unsigned *cc, const char **rest, char *err,
                             size_t err_size)
{
    *cc = 0;
    for (size_t i = 0; i < sizeof shared_names / sizeof *shared_names; i++) {
        const char *r = after_shared(name, shared_names[i].name);
        if (!r)
            continue;
        unsigned said = 0;
        bool two = false;
        for (const char *w = r; *w; w += strcspn(w, " ")) {
            w += strspn(w, " ");
            size_t wl = strcspn(w, " ");
            for (size_t k = 0; k < sizeof generation_words / sizeof *generation_words; k++) {
                if (strlen(generation_words[k].word) != wl || strncmp(w, generation_words[k].word, wl) != 0)
                    continue;
                two |= said && said != generation_words[k].cc;
                said = generation_words[k].cc;
            }
        }
        bool offered = false;
        for (size_t k = 0; k < sizeof shared_names[i].ccs / sizeof *shared_names[i].ccs; k++)
            offered |= said && shared_names[i].ccs[k] == said;
        if (offered && !two) {
            *cc = said;
            *rest = *r == ' ' ? r : strchr(r, ' ');
            return FC_OK;
        }
        snprintf(err, err_size, "GPU '%s' names several products: say which, as %s, or give its compute "
                                "capability", spec, shared_names[i].choices);
        return FC_ERR_INVALID;
    }
    return FC_OK;
}

/* The architecture's name of compute capability CC, as NVIDIA's product names use it. */
static const char *family_of(unsigned cc)
{
    if (cc == 75)
        return "turing";
    if (cc >= 80 && cc <= 88)
        return "ampere";
    if (cc == 89)
        return "ada";
    if (cc == 90)
        return "hopper";
    return cc >= 100 && cc < 130 ? "blackwell" : cc == 70 || cc == 72 ? "volta" : "";
}

/* A word of NAME naming another architecture than CC's ("Quadro RTX 3000 Ada" was 7.5, "RTX
 * A6000 Blackwell" 8.6, "RTX PRO 6000 Ada" 12.0: red-team review of 2026-12-04), or NULL. */
static const char *other_family(const char *name, unsigned cc)
{
    static const char *const families[] = {"volta", "turing", "ampere", "ada", "hopper", "blackwell"};
    for (const char *w = name; *w; w += strcspn(w, " ")) {
        w += strspn(w, " ");
        size_t wl = strcspn(w, " ");
        for (size_t k = 0; k < sizeof families / sizeof *families; k++)
            if (strlen(families[k]) == wl && strncmp(w, families[k], wl) == 0 && strcmp(families[k], family_of(cc)))
                return families[k];
    }
    return NULL;
}

/* The product NAME is best taken for, or NULL; *REST at the space before the words after
 * those it was known by (NULL: none). */
static const product *best_product(const char *name, const char **rest)
{
    int best = -1;
    size_t words_taken = 1;
    const product *hit = NULL;
    for (size_t i = 0; i < sizeof products / sizeof *products; i++) {
        int sc = match_score(products[i].pattern, name);
        if (sc > best) {
            best = sc;
            hit = &products[i];
            words_taken = 1;
            for (const char *c = hit->pattern; *c; c++)
                words_taken += *c == ' ';
        }
    }
    if (best <= 0) {
        words_taken = 1;
        /* "RTX4090", "GB 200": compare without spaces, wildcards only at the end. */
        char compact[256], pat[64];
        size_t k = 0;
        for (const char *p = name; *p; p++)
            if (*p != ' ')
                compact[k++] = *p;
        compact[k] = '\0';
        for (size_t i = 0; i < sizeof products / sizeof *products; i++) {
            const char *pp = products[i].pattern;
            size_t m = 0;
            for (; *pp && m + 1 < sizeof pat; pp++)
                if (*pp != ' ')
                    pat[m++] = *pp;
            pat[m] = '\0';
            char *star = strchr(pat, '*');
            if (star && star[1])
                continue;
            bool ok = word_matches(pat, m, compact, k) && (!star || compact[star - pat] || (star > pat && star[-1] == '#'));
            /* A literal character outweighs a '#' (and '*' counts nothing): "rtx2050" is its own
             * product (8.6), not "rtx20##*" (7.5), which is longer (review of 2026-12-07, rv40). */
            int literal = 0, digits = 0;
            for (size_t c = 0; c < m; c++)
                literal += pat[c] != '#' && pat[c] != '*', digits += pat[c] == '#';
            int sc = ok ? 2 * literal + digits : -1;
            if (sc > best) {
                best = sc;
                hit = &products[i];
            }
        }
    }
    if (!hit || best <= 0)
        return NULL;
    *rest = name;
    for (size_t k = 0; *rest && k < words_taken; k++)
        *rest = strchr(*rest + (k > 0), ' ');
    return hit;
}

/* Whether a GPU's name SPEC, known as a GPU of compute capability NAMED by its normalised
 * words up to REST, goes on to another target than a pattern's name: a list separator (';',
 * '/', as TORCH_CUDA_ARCH_LIST and CMake write lists), a compute capability ("8.6", "sm_86",
 * "86"), or a product in its compact spelling ("RTX4090"). "H100;8.6" and "H100 sm_86" were
 * judged for the H100 alone (review of 2026-12-06, rt11 F1; rv12 F9: '|', ':', "(8.6)", "8.6+PTX",
 * "sm86"). */
static bool another_target(const char *spec, const char *rest, unsigned named)
{
    if (strpbrk(spec, ";/|:"))
        return true;
    /* A number before "GB" is memory ("A100 80 GB"), not a compute capability. */
    for (const char *t = spec + strspn(spec, " \t"); *t;) {
        char tok[64];
        size_t n = strcspn(t, " \t");
        const char *next = t + n + strspn(t + n, " \t");
        if (n + 1 < sizeof tok && strncasecmp(next, "gb", 2) != 0) {
            /* as an arch list writes it: "8.6+PTX", "sm86" for sm_86, "(8.6)" (rv12 F9); real names
             * hold brackets ("Orin (nvgpu)", "Jetson AGX Xavier [16GB]") */
            const char *w = t;
            size_t wn = n;
            if (wn && (*w == '(' || *w == '['))
                w++, wn--;
            if (wn && (w[wn - 1] == ')' || w[wn - 1] == ']'))
                wn--;
            bool sm = wn > 2 && (w[0] == 's' || w[0] == 'S') && (w[1] == 'm' || w[1] == 'M') &&
                      isdigit((unsigned char)w[2]);
            snprintf(tok, sizeof tok, "%s%.*s", sm ? "sm_" : "", (int)(wn - (sm ? 2 : 0)), w + (sm ? 2 : 0));
            char *plus = strchr(tok, '+');
            if (plus && strcasecmp(plus, "+ptx") == 0)
                *plus = '\0';
            unsigned cc = parse_cc(tok);
            if (cc && fc_cc_exists(cc))
                return true;
        }
        t = next;
    }
    for (const char *w = rest; w; w = strchr(w + 1, ' ')) {
        char word[64];
        const char *start = w + 1;
        size_t n = strcspn(start, " ");
        if (!n || n >= sizeof word || strncmp(start + n, " gb", 3) == 0)
            continue;
        memcpy(word, start, n);
        word[n] = '\0';
        unsigned cc = parse_cc(word);
        const char *after;
        const product *other = best_product(word, &after);
        if ((cc && fc_cc_exists(cc)) || (other && other->cc != named))
            return true;
    }
    return false;
}

/* Whether the variant letter V ('a' or 'f') ends an architecture nvcc 13.0 builds: sm_90a,
 * sm_100f; "sm_89a" was taken for 8.9 (review of 2026-12-07, rv38 F4). */
static bool variant_known(unsigned cc, char v)
{
    static const unsigned with_a[] = {90, 100, 101, 103, 110, 120, 121}, with_f[] = {100, 101, 103, 110, 120, 121};
    const unsigned *list = v == 'a' ? with_a : with_f;
    size_t n = v == 'a' ? sizeof with_a / sizeof *with_a : sizeof with_f / sizeof *with_f;
    for (size_t i = 0; i < n; i++)
        if (list[i] == cc)
            return true;
    return false;
}

fc_status fc_target_parse(fc_target *t, const char *spec_in, char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    /* Spaces around a word are no part of it (" 8.6" was taken and "8.6 " refused). */
    char trimmed[256];
    while (*spec_in == ' ')
        spec_in++;
    if (strlen(spec_in) >= sizeof trimmed) { /* cut, it was another GPU name (rv40) */
        snprintf(err, err_size, "GPU '%.40s...' is too long: %zu characters, %zu at most", spec_in, strlen(spec_in),
                 sizeof trimmed - 1);
        return FC_ERR_INVALID;
    }
    snprintf(trimmed, sizeof trimmed, "%s", spec_in);
    for (size_t n = strlen(trimmed); n && trimmed[n - 1] == ' ';)
        trimmed[--n] = '\0';
    const char *spec = trimmed;
    unsigned cc = parse_cc(spec);
    size_t spec_len = strlen(spec);
    char v = spec_len ? spec[spec_len - 1] : 0;
    if (cc && fc_cc_exists(cc) && (v == 'a' || v == 'f') && !variant_known(cc, v)) {
        snprintf(err, err_size, "GPU '%s': no architecture sm_%u%c (%s code is built for %s)", spec, cc, v,
                 v == 'a' ? "arch-specific" : "family",
                 v == 'a' ? "sm_90a, sm_100a, sm_103a, sm_110a, sm_120a and sm_121a"
                          : "sm_100f, sm_103f, sm_110f, sm_120f and sm_121f");
        return FC_ERR_INVALID;
    }
    if (cc && !fc_cc_exists(cc)) {
        /* A typo judged as a GPU nobody has would pass by rules guessed for it (review of
         * 2026-12-03: "--gpu 9.9" was ok on sm_90 code). */
        snprintf(err, err_size, "GPU '%s': no GPU has compute capability %u.%u (see --gpu list)", spec, cc / 10,
                 cc % 10);
        return FC_ERR_INVALID;
    }
    if (cc) {
        t->cc = cc;
        t->tegra = fc_cc_is_tegra(cc);
        snprintf(t->source, sizeof t->source, "--gpu %.*s", (int)(sizeof t->source - 7), spec); /* shown cut */
        return FC_OK;
    }
    char name[256];
    normalise(spec, name, sizeof name);
    unsigned named = 0;
    const char *rest = NULL;
    fc_status st = shared_name(name, spec, &named, &rest, err, err_size);
    if (st != FC_OK)
        return st;
    if (!named) {
        const product *hit = best_product(name, &rest);
        named = hit ? hit->cc : 0;
    }
    if (named && another_target(spec, rest, named)) {
        snprintf(err, err_size, "GPU '%s' names more than one GPU: give each its own --gpu, or separate them with "
                                "commas", spec);
        return FC_ERR_INVALID;
    }
    if (named) {
        /* Names may go on ("h100 80gb hbm3"), but not into another GPU's name: "A100 H100",
         * "L4;H100" would be judged for the first alone (review of 2026-12-03, F6). The words
         * after those the name was known by are looked at. */
        for (const char *w = rest; w; w = strchr(w + 1, ' ')) {
            for (size_t i = 0; i < sizeof products / sizeof *products; i++) {
                if (products[i].cc == named || match_score(products[i].pattern, w + 1) <= 0)
                    continue;
                snprintf(err, err_size, "GPU '%s' names more than one GPU: give each its own --gpu, or "
                                        "separate them with commas", spec);
                return FC_ERR_INVALID;
            }
        }
        const char *other = other_family(name, named);
        if (other) {
            snprintf(err, err_size, "GPU '%s': '%s' is not the architecture of the GPU it names (compute "
                                    "capability %u.%u): say which, or give its compute capability", spec, other,
                     named / 10, named % 10);
            return FC_ERR_INVALID;
        }
        t->cc = named;
        t->tegra = fc_cc_is_tegra(named);
        snprintf(t->name, sizeof t->name, "%.*s", (int)(sizeof t->name - 1), spec);
        snprintf(t->source, sizeof t->source, "--gpu %.*s", (int)(sizeof t->source - 7), spec); /* shown cut */
        return FC_OK;
    }
    /* An arch list is no GPU: say where it goes, and how the GPUs would be named (review of
     * 2026-12-07, rv38 F4: "8.0;8.6+PTX" was offered 'titan rtx', 'gtx 960m', 'jetson tx1'). */
    fc_arch_list as_list;
    char list_err[256];
    if (fc_arch_list_parse(&as_list, spec, list_err, sizeof list_err) == FC_OK && as_list.n) {
        char ccs[128] = "";
        size_t used = 0;
        for (size_t i = 0; i < as_list.n && used < sizeof ccs - 8; i++)
            used += (size_t)snprintf(ccs + used, sizeof ccs - used, "%s%u.%u", i ? "," : "", as_list.entries[i].cc / 10,
                                     as_list.entries[i].cc % 10);
        snprintf(err, err_size, "GPU '%s' is written as a TORCH_CUDA_ARCH_LIST: give it to --arch-list, or name the "
                                "GPUs with commas (--gpu %s)", spec, ccs);
        return FC_ERR_INVALID;
    }
    /* Suggest the three closest product names. */
    const product *near[3] = {NULL, NULL, NULL};
    size_t dist[3] = {99, 99, 99};
    for (size_t i = 0; i < sizeof products / sizeof *products; i++) {
        if (strpbrk(products[i].pattern, "*#"))
            continue;
        size_t d = edit_distance(name, products[i].pattern);
        for (size_t k = 0; k < 3; k++) {
            if (d < dist[k]) {
                for (size_t m = 2; m > k; m--)
                    near[m] = near[m - 1], dist[m] = dist[m - 1];
                near[k] = &products[i];
                dist[k] = d;
                break;
            }
        }
    }
    int len = snprintf(err, err_size, "unknown GPU '%s'", spec);
    for (size_t k = 0; k < 3 && near[k] && len > 0 && (size_t)len < err_size; k++)
        len += snprintf(err + len, err_size - (size_t)len, "%s'%s'", k ? ", " : " (did you mean ", near[k]->pattern);
    if (near[0] && len > 0 && (size_t)len < err_size)
        snprintf(err + len, err_size - (size_t)len, "?)");
    return FC_ERR_INVALID;
}

/* ---- TORCH_CUDA_ARCH_LIST ------------------------------------------------------------- */

/* torch/utils/cpp_extension.py, _get_cuda_arch_flags (targets.md). */
static const struct {
    const char *name, *expansion;
} named_arches[] = {
    {"Kepler+Tesla", "3.7"}, {"Kepler", "3.5+PTX"}, {"Maxwell+Tegra", "5.3"}, {"Maxwell", "5.0;5.2+PTX"},
    {"Pascal", "6.0;6.1+PTX"}, {"Volta+Tegra", "7.2"}, {"Volta", "7.0+PTX"}, {"Turing", "7.5+PTX"},
    {"Ampere+Tegra", "8.7"}, {"Ampere", "8.0;8.6+PTX"}, {"Ada", "8.9+PTX"}, {"Hopper", "9.0+PTX"},
    {"Blackwell+Tegra", "11.0"}, {"Blackwell", "10.0;10.3;12.0;12.1+PTX"},
};

static fc_status add_arch_entry(fc_arch_list *out, const char *tok, char *err, size_t err_size)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", tok);
    bool ptx = false;
    char *plus = strstr(buf, "+PTX");
    if (plus && plus[4] == '\0') {
        ptx = true;
        *plus = '\0';
    }
    size_t len = strlen(buf);
    bool a = len && buf[len - 1] == 'a';
    if (len && buf[len - 1] == 'f') {
        snprintf(err, err_size, "'%s': torch does not accept family (f) architectures", tok);
        return FC_ERR_INVALID;
    }
    /* torch's own spelling only: "X.Y" or "XY.Z" ("sm_8.6", "compute_9.0", "08.6" were read as
     * 8.6 and 9.0 where torch answers "Unknown CUDA arch"), "a" only where torch lists it. */
    size_t digits = strspn(buf, "0123456789");
    bool form = (digits == 1 || (digits == 2 && buf[0] != '0')) && buf[digits] == '.' &&
                isdigit((unsigned char)buf[digits + 1]) && len == digits + 2 + a;
    unsigned cc = form ? parse_cc(buf) : 0;
    if (!cc) {
        snprintf(err, err_size, "'%s' is not an architecture (expected X.Y, X.Ya, X.Y+PTX or a name such as Ampere)",
                 tok);
        return FC_ERR_INVALID;
    }
    /* torch answers "Unknown CUDA arch" for one no GPU has; taken, it was a target of its own,
     * with build advice for it (review of 2026-12-08, rv43 F6: 9.9, 9.5+PTX). */
    if (!fc_cc_exists(cc)) {
        snprintf(err, err_size, "'%s': no GPU has compute capability %u.%u", tok, cc / 10, cc % 10);
        return FC_ERR_INVALID;
    }
    if (cc < 35) { /* torch's supported_arches start at 3.5 in every release (rv44 F8) */
        snprintf(err, err_size, "'%s': torch builds nothing for compute capability %u.%u (its list starts at 3.5)",
                 tok, cc / 10, cc % 10);
        return FC_ERR_INVALID;
    }
    static const unsigned with_a[] = {90, 100, 103, 110, 120, 121};
    bool a_known = false;
    for (size_t i = 0; i < sizeof with_a / sizeof *with_a; i++)
        a_known |= with_a[i] == cc;
    if (a && !a_known) {
        snprintf(err, err_size, "'%s': torch builds no arch-specific (a) code for %u.%u (only for 9.0, 10.0, 10.3, "
                 "11.0, 12.0 and 12.1)", tok, cc / 10, cc % 10);
        return FC_ERR_INVALID;
    }
    if (out->n == sizeof out->entries / sizeof *out->entries) {
        snprintf(err, err_size, "too many architectures");
        return FC_ERR_LIMIT;
    }
    for (size_t i = 0; i < out->n; i++) { /* repeated entries merge */
        if (out->entries[i].cc == cc && out->entries[i].arch_specific == a) {
            out->entries[i].ptx |= ptx;
            return FC_OK;
        }
    }
    out->entries[out->n++] = (fc_arch_entry){cc, a, ptx};
    return FC_OK;
}

fc_status fc_arch_list_parse(fc_arch_list *out, const char *value, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (strchr(value, ',')) {
        snprintf(err, err_size, "'%s': separate architectures with ';' or spaces, not commas", value);
        return FC_ERR_INVALID;
    }
    char buf[1024];
    if (strlen(value) >= sizeof buf) {
        snprintf(err, err_size, "arch list too long");
        return FC_ERR_LIMIT;
    }
    snprintf(buf, sizeof buf, "%s", value);
    char *save = NULL;
    for (char *tok = strtok_r(buf, "; \t", &save); tok; tok = strtok_r(NULL, "; \t", &save)) {
        if (strcmp(tok, "native") == 0 || strcmp(tok, "all") == 0) {
            snprintf(err, err_size, "'%s' depends on the machine that builds; name architectures instead", tok);
            return FC_ERR_INVALID;
        }
        const char *expansion = NULL;
        for (size_t i = 0; i < sizeof named_arches / sizeof *named_arches; i++)
            if (strcmp(tok, named_arches[i].name) == 0)
                expansion = named_arches[i].expansion;
        if (expansion) {
            char exp[64];
            snprintf(exp, sizeof exp, "%s", expansion);
            char *s2 = NULL;
            for (char *e = strtok_r(exp, ";", &s2); e; e = strtok_r(NULL, ";", &s2)) {
                fc_status st = add_arch_entry(out, e, err, err_size);
                if (st != FC_OK)
                    return st;
            }
            continue;
        }
        fc_status st = add_arch_entry(out, tok, err, err_size);
        if (st != FC_OK)
            return st;
    }
    if (!out->n) {
        snprintf(err, err_size, "empty arch list");
        return FC_ERR_INVALID;
    }
    return FC_OK;
}

/* ---- PTX ISA and driver versions ------------------------------------------------------ */

/* PTX ISA documentation, "PTX Release History" (compat-rules.md section 2). 8.6 came with
 * the never-shipped "12.7"; a 12.8 driver takes it. */
static const struct {
    unsigned isa; /* major * 10 + minor */
    int cuda;
} ptx_isa[] = {
    {60, 9000}, {61, 9010}, {62, 9020}, {63, 10000}, {64, 10010}, {65, 10020},
    {70, 11000}, {71, 11010}, {72, 11020}, {73, 11030}, {74, 11040}, {75, 11050}, {76, 11060},
    {77, 11070}, {78, 11080}, {80, 12000}, {81, 12010}, {82, 12020}, {83, 12030}, {84, 12040},
    {85, 12050}, {86, 12070}, {87, 12080}, {88, 12090}, {90, 13000}, {91, 13010}, {92, 13020},
    {93, 13030}, {94, 13040},
};

int fc_ptx_isa_cuda_version(unsigned major, unsigned minor)
{
    unsigned isa = major * 10 + minor;
    for (size_t i = 0; i < sizeof ptx_isa / sizeof *ptx_isa; i++)
        if (ptx_isa[i].isa == isa)
            return ptx_isa[i].cuda;
    return 0;
}

/* The first PTX ISA each .target is written in: PTX ISA documentation (9.0), "PTX Release
 * History", the targets each ISA supports; ptxas 13.0 agrees for every target it builds
 * (sm_75 and up: "PTX .version 7.0 does not support .target sm_90" one version below).
 * sm_101 is Thor's name before ISA 9.0, sm_110 after. sm_88 is left out: the document gives
 * ISA 9.0, ptxas 13.0 takes 7.3. */
static const struct {
    unsigned arch;
    fc_variant variant;
    unsigned isa;
} target_isa[] = {
    {30, FC_VARIANT_NONE, 30}, {32, FC_VARIANT_NONE, 40}, {35, FC_VARIANT_NONE, 31}, {37, FC_VARIANT_NONE, 41},
    {50, FC_VARIANT_NONE, 40}, {52, FC_VARIANT_NONE, 41}, {53, FC_VARIANT_NONE, 42}, {60, FC_VARIANT_NONE, 50},
    {61, FC_VARIANT_NONE, 50}, {62, FC_VARIANT_NONE, 50}, {70, FC_VARIANT_NONE, 60}, {72, FC_VARIANT_NONE, 61},
    {75, FC_VARIANT_NONE, 63}, {80, FC_VARIANT_NONE, 70}, {86, FC_VARIANT_NONE, 71}, {87, FC_VARIANT_NONE, 74},
    {89, FC_VARIANT_NONE, 78}, {90, FC_VARIANT_NONE, 78}, {90, FC_VARIANT_ARCH_SPECIFIC, 80},
    {100, FC_VARIANT_NONE, 86}, {100, FC_VARIANT_ARCH_SPECIFIC, 86}, {100, FC_VARIANT_FAMILY, 88},
    {101, FC_VARIANT_NONE, 86}, {101, FC_VARIANT_ARCH_SPECIFIC, 86}, {101, FC_VARIANT_FAMILY, 88},
    {103, FC_VARIANT_NONE, 88}, {103, FC_VARIANT_ARCH_SPECIFIC, 88}, {103, FC_VARIANT_FAMILY, 88},
    {110, FC_VARIANT_NONE, 90}, {110, FC_VARIANT_ARCH_SPECIFIC, 90}, {110, FC_VARIANT_FAMILY, 90},
    {120, FC_VARIANT_NONE, 87}, {120, FC_VARIANT_ARCH_SPECIFIC, 87}, {120, FC_VARIANT_FAMILY, 88},
    {121, FC_VARIANT_NONE, 88}, {121, FC_VARIANT_ARCH_SPECIFIC, 88}, {121, FC_VARIANT_FAMILY, 88},
};

unsigned fc_ptx_target_min_isa(unsigned arch, fc_variant variant)
{
    for (size_t i = 0; i < sizeof target_isa / sizeof *target_isa; i++)
        if (target_isa[i].arch == arch && target_isa[i].variant == variant)
            return target_isa[i].isa;
    return 0;
}

/* The first CUDA release whose driver runs each compute capability: a driver older than that
 * knows no such GPU, and nothing loads on it. Sources: the PTX ISA documentation's "PTX
 * Release History" (the ISA, and so the release, that first names each target: target_isa
 * above, ptx_isa for the release), and what each release says it added: CUDA 11.0 GA100 (8.0),
 * 11.1 GA10x (8.6), 11.4 sm_87 (CMake's CUDA architectures, MR 8031: "Add 8.7 ... for CUDA >=
 * 11.4"), 11.8 Ada and Hopper (8.9, 9.0; same MR, and k2-fsa/k2 99f5979: "compute capability
 * 90 appeared first in CUDA 11.8"), 12.8 Blackwell sm_100, sm_101, sm_120 (ISA 8.6 is "12.7",
 * never shipped; 8.7 is 12.8), 12.9 "compiler target support for SM architecture 10.3
 * (sm_103, ...) and 12.1 (sm_121)" (CUDA Features Archive 12.9), 13.0 Thor as 11.0 (sm_110,
 * ISA 9.0; 10.1 before). Compute capabilities older than 7.0 predate every driver fatcheck
 * knows (CUDA 9.0 and on); 8.8 is left out (no release names it as a GPU of its own). */
static const struct {
    unsigned cc;
    int cuda;
} first_cuda[] = {
    {70, 9000},   {72, 9010},   {75, 10000},  {80, 11000},  {86, 11010},  {87, 11040},
    {89, 11080},  {90, 11080},  {100, 12080}, {101, 12080}, {103, 12090}, {110, 13000},
    {120, 12080}, {121, 12090},
};

int fc_cc_first_cuda(unsigned cc)
{
    for (size_t i = 0; i < sizeof first_cuda / sizeof *first_cuda; i++)
        if (first_cuda[i].cc == cc)
            return first_cuda[i].cuda;
    return 0;
}

/* The last driver branch for each architecture NVIDIA's "Unix graphics feature deprecation
 * schedule" has retired: "the 470 driver branch will be the last to support Kepler"; "the
 * release 580 series will be the last to support GPUs based on the Maxwell, Pascal, and
 * Volta architectures". A branch's CUDA version is its first release's (min_driver below:
 * 470.42.01 CUDA 11.4, 580.65.06 13.0). Jetson parts (3.2, 5.3, 6.2, 7.2) run the drivers of
 * their own L4T releases and are not listed. */
static const struct {
    unsigned cc;
    int cuda;
    const char *branch;
} last_cuda[] = {
    {30, 11040, "R470"}, {35, 11040, "R470"}, {37, 11040, "R470"}, {50, 13000, "R580"},
    {52, 13000, "R580"}, {60, 13000, "R580"}, {61, 13000, "R580"}, {70, 13000, "R580"},
    /* Not a retirement: Thor was 10.1 up to CUDA 12.9 and is 11.0 from 13.0 (first_cuda), so no
     * driver after 12.9 shows a 10.1 GPU. Judged as one, sm_101 code was ok on a CUDA 13 driver,
     * where the same GPU by name (11.0) was none (review of 2026-12-05, rt7 F5). */
    {101, 12090, "R575"},
};

int fc_cc_last_cuda(unsigned cc, const char **branch)
{
    for (size_t i = 0; i < sizeof last_cuda / sizeof *last_cuda; i++)
        if (last_cuda[i].cc == cc) {
            if (branch)
                *branch = last_cuda[i].branch;
            return last_cuda[i].cuda;
        }
    return 0;
}

/* CUDA Toolkit Release Notes, "CUDA Toolkit and Corresponding Driver Versions" (GA, Linux
 * x86_64), compat-rules.md section 3. */
static const struct {
    int cuda;
    const char *driver;
} min_driver[] = {
    {10000, "410.48"}, {10010, "418.39"}, {10020, "440.33"}, {11000, "450.51.05"}, {11010, "455.23"},
    {11020, "460.27.03"}, {11030, "465.19.01"}, {11040, "470.42.01"}, {11050, "495.29.05"},
    {11060, "510.39.01"}, {11070, "515.43.04"}, {11080, "520.61.05"}, {12000, "525.60.13"},
    {12010, "530.30.02"}, {12020, "535.54.03"}, {12030, "545.23.06"}, {12040, "550.54.14"},
    {12050, "555.42.02"}, {12060, "560.28.03"}, {12080, "570.26"}, {12090, "575.51.03"},
    {13000, "580.65.06"}, {13010, "590.44.01"}, {13020, "595.45.04"},
};

const char *fc_cuda_min_driver(int cuda_version)
{
    for (size_t i = 0; i < sizeof min_driver / sizeof *min_driver; i++)
        if (min_driver[i].cuda == cuda_version)
            return min_driver[i].driver;
    /* "12.7" PTX is served from 12.8 on. */
    for (size_t i = 0; i < sizeof min_driver / sizeof *min_driver; i++)
        if (min_driver[i].cuda > cuda_version)
            return min_driver[i].driver;
    return NULL;
}

bool fc_cuda_release_range(int cuda_version, const char **lo, const char **hi)
{
    for (size_t i = 0; i < sizeof min_driver / sizeof *min_driver; i++)
        if (min_driver[i].cuda == cuda_version) {
            *lo = min_driver[i].driver;
            *hi = i + 1 < sizeof min_driver / sizeof *min_driver ? min_driver[i + 1].driver : NULL;
            return true;
        }
    return false;
}

/* Compares dotted release numbers ("580.65.06" with "580.159.04") field by field. */
static int cmp_release(const char *a, const char *b)
{
    while (*a || *b) {
        unsigned long x = strtoul(a, (char **)&a, 10), y = strtoul(b, (char **)&b, 10);
        if (x != y)
            return x < y ? -1 : 1;
        if (*a == '.')
            a++;
        if (*b == '.')
            b++;
        if (!*a && !*b)
            break;
    }
    return 0;
}

/* The first release of driver branch BRANCH (580: "580.65.06") in the table, or NULL. */
static const char *branch_first_release(unsigned long branch)
{
    for (size_t i = 0; i < sizeof min_driver / sizeof *min_driver; i++)
        if (strtoul(min_driver[i].driver, NULL, 10) == branch)
            return min_driver[i].driver;
    return NULL;
}

/* NVIDIA's number of a driver version S given in Windows' own form (Device Manager, WMI),
 * said, not taken, the mapping being NVIDIA's habit (rv45 F7): 56636 (566.36) for
 * "32.0.15.6636", its last five digits; 0 for anything else: digits and dots only, the first
 * part 20 to 99, the last four digits ("12.4.0.0" or "-32.0.15.6636" are not it, rv46 F5). */
static unsigned windows_driver_form(const char *s)
{
    unsigned a, b, c, d;
    char end;
    const char *dot = strrchr(s, '.');
    if (strspn(s, "0123456789.") != strlen(s) || !dot || strlen(dot + 1) != 4 ||
        sscanf(s, "%u.%u.%u.%u%c", &a, &b, &c, &d, &end) != 4 || a < 20 || a > 99 || c >= 100)
        return 0;
    unsigned five = (c % 10) * 10000 + d;
    return five >= 10000 ? five : 0;
}

fc_status fc_driver_parse(int *cuda_version, const char *s, char *err, size_t err_size)
{
    int dots = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '.')
            dots++;
        else if (!isdigit((unsigned char)*p) || dots > 2)
            goto bad;
    }
    if (!*s || s[strlen(s) - 1] == '.' || *s == '.')
        goto bad;
    if (strlen(s) > 12)
        goto bad;
    unsigned long major = strtoul(s, NULL, 10), minor = dots ? strtoul(strchr(s, '.') + 1, NULL, 10) : 0;
    /* cuDriverGetVersion's (and NVML's) number: 1000 * major + 10 * minor, 12040 for 12.4. As
     * a release it was newer than any driver: every PTX judged to JIT. */
    if (!dots && major >= 1000) {
        if (major % 10)
            goto bad;
        minor = major % 1000 / 10;
        major /= 1000;
    } else if (major >= 100 && !dots) {
        /* A branch ("590"): its releases all serve its first one's CUDA. Read as release
         * 590.0.0 it was older than 590.44.01, so CUDA 13.0: a V100, whose last branch is
         * R580, passed on R590 (review of 2026-12-05, rt7 F2); and 580 was CUDA 12.9. A branch
         * the table does not have is not guessed. */
        const char *first = branch_first_release(major);
        if (!first) {
            snprintf(err, err_size, "'%s': no driver branch %lu is known to this fatcheck; name the release "
                     "(%lu.xx.yy) or the CUDA version it supports", s, major, major);
            return FC_ERR_INVALID;
        }
        s = first;
        goto release;
    } else if (major >= 100) {
        goto release;
    }
    /* A CUDA version: 12.4, 13.0. One past the newest release known (a typo, 21.4 for 12.4)
     * would be a driver that compiles any PTX. */
    if (dots > 1 || major < 9 || minor > 9)
        goto bad;
    int newest = ptx_isa[sizeof ptx_isa / sizeof *ptx_isa - 1].cuda;
    if ((int)(major * 1000 + minor * 10) > newest) {
        snprintf(err, err_size, "'%s': CUDA %lu.%lu is newer than any release this fatcheck knows (%d.%d is the "
                 "newest)", s, major, minor, newest / 1000, newest % 1000 / 10);
        return FC_ERR_INVALID;
    }
    *cuda_version = (int)(major * 1000 + minor * 10);
    return FC_OK;
release:;
    /* A driver release: the newest CUDA whose minimum driver it meets. */
    int best = 0;
    for (size_t i = 0; i < sizeof min_driver / sizeof *min_driver; i++)
        if (cmp_release(s, min_driver[i].driver) >= 0)
            best = min_driver[i].cuda;
    if (!best) {
        snprintf(err, err_size, "driver %s is older than any CUDA 10 driver", s);
        return FC_ERR_INVALID;
    }
    *cuda_version = best;
    return FC_OK;
bad:;
    unsigned five = windows_driver_form(s);
    if (five) {
        snprintf(err, err_size, "'%s' is Windows' form of a driver version: NVIDIA's is its last five digits, "
                 "%u.%02u (give that, or the CUDA version)", s, five / 100, five % 100);
        return FC_ERR_INVALID;
    }
    snprintf(err, err_size, "'%s' is neither a CUDA version (12.4, or 12040 as cuDriverGetVersion gives it) nor a "
             "driver release (550.54.14)", s);
    return FC_ERR_INVALID;
}

bool fc_driver_release(const char *s, char *release, size_t size)
{
    int cuda;
    char err[200];
    if (!s || fc_driver_parse(&cuda, s, err, sizeof err) != FC_OK)
        return false;
    unsigned long major = strtoul(s, NULL, 10);
    bool dotted = strchr(s, '.') != NULL;
    if (major < 100 || (!dotted && major >= 1000))
        return false; /* a CUDA version: 12.4, 12040 */
    snprintf(release, size, "%s", dotted ? s : branch_first_release(major));
    return true;
}
