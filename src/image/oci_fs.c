/* oci_fs.c - the filesystem a container sees: its image's layers applied in order.
 *
 * As the OCI image spec (layer.md) and containerd's applier have it: a layer's whiteouts hide
 * what the layers below put there (.wh.NAME deletes NAME, .wh..wh..opq everything in its
 * directory), then its entries are created in order, each replacing what was at its path
 * (a directory over a directory keeps what is in it). An entry's parent path is resolved
 * through the symbolic links its own layer made, inside the image's root (an absolute target
 * starts at the image's root, ".." stops there), and missing directories are made; a link a
 * lower layer made is replaced by a directory, as Docker's overlay2 and containerd's overlayfs
 * snapshotter apply each layer into a directory of its own (walk()); its last name is taken
 * as it is.
 * A hard link is a second name for the file its target names when it is applied. Nothing on
 * the host is ever looked at: every name is one of this tree's nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "oci.h"

/* Links followed on one path before it is called a loop, as Linux's MAXSYMLINKS. */
#define MAX_LINKS 40
/* What placing an image's entries and checking its links may cost, in names walked (a link's
 * target counts one more per 64 bytes copied). Linux bounds one lookup (40 links of up to 4 KiB
 * each: some 80,000 names), not how many lookups a file system asks for: a 133 KB image of
 * 20,000 links to a chain of 40 such links took 12 s of CPU (FC_OCI_MAX_ENTRIES of them: about an
 * hour). An image's paths take a few names each, and a link a few more. */
#define WALK_STEPS (64ull << 20)

enum { KIND_FREE = 255 };

typedef struct node {
    uint32_t parent, child, next, prev; /* the tree: first child, siblings */
    uint32_t hnext;                     /* the hash chain of (parent, name) */
    uint32_t name, name_len;            /* in fs->names */
    uint32_t layer, entry;              /* the entry it came from: a file's bytes, a link's target */
    uint8_t kind;                       /* fc_oci_kind: FILE, DIR, SYMLINK, OTHER; or KIND_FREE */
} node;

struct fc_oci_fs {
    node *nodes;
    size_t n_nodes, cap_nodes;
    uint32_t free_nodes;     /* removed nodes, chained through next */
    char *names;
    size_t names_len, names_cap;
    uint32_t *buckets;
    size_t n_buckets, n_live;
    const fc_oci_layer **layers; /* by index, for link targets */
    size_t n_layers, cap_layers;
    char *buf;               /* a path being resolved */
    size_t buf_cap;
    uint64_t steps_left;     /* of WALK_STEPS */
    bool metered;            /* walks count against it (not a single lookup: fc_oci_fs_open) */
    bool budget_said;        /* placing entries ran out of it: said once, the rest left out */
    bool links_unchecked;    /* the walk ran out of it: links from there on not checked */
};

#define ROOT 0u
#define NONE FC_OCI_NONE

static uint64_t hash(uint32_t parent, const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)parent * 0x9E3779B97F4A7C15ull);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    return h ^ (h >> 31);
}

static const char *name_of(const fc_oci_fs *fs, const node *nd)
{
    return fs->names + nd->name;
}

fc_oci_fs *fc_oci_fs_new(void)
{
    fc_oci_fs *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    fs->n_buckets = 1024;
    fs->buckets = malloc(fs->n_buckets * sizeof *fs->buckets);
    if (!fs->buckets || !fc_grow_array((void **)&fs->nodes, &fs->cap_nodes, 1, sizeof *fs->nodes, 64) ||
        !fc_grow_array((void **)&fs->names, &fs->names_cap, 1, 1, 64)) {
        fc_oci_fs_free(fs);
        return NULL;
    }
    memset(fs->buckets, 0xff, fs->n_buckets * sizeof *fs->buckets);
    fs->names[fs->names_len++] = '\0';
    fs->nodes[0] = (node){.parent = ROOT, .child = NONE, .next = NONE, .prev = NONE, .hnext = NONE,
                          .layer = NONE, .entry = NONE, .kind = FC_OCI_DIR};
    fs->n_nodes = 1;
    fs->free_nodes = NONE;
    fs->steps_left = WALK_STEPS;
    fs->metered = true;
    return fs;
}

void fc_oci_fs_free(fc_oci_fs *fs)
{
    if (!fs)
        return;
    free(fs->nodes);
    free(fs->names);
    free(fs->buckets);
    free(fs->layers);
    free(fs->buf);
    free(fs);
}

/* Takes COST steps of the image's WALK_STEPS (a single lookup takes none); false when they
 * are spent. */
static bool step(fc_oci_fs *fs, uint64_t cost)
{
    if (!fs->metered)
        return true;
    if (fs->steps_left < cost) {
        fs->steps_left = 0;
        return false;
    }
    fs->steps_left -= cost;
    return true;
}

/* The node named S (N bytes) in PARENT, or NONE. Each node passed on its hash chain is a step
 * of WALK_STEPS: names chosen to share a bucket (the hash is FNV-1a, which anyone can collide
 * offline) made each lookup walk 3,000 nodes, and a 51 KB image took 30 s (red-team review of
 * 2026-12-04). */
static uint32_t lookup(fc_oci_fs *fs, uint32_t parent, const char *s, size_t n)
{
    uint32_t i = fs->buckets[hash(parent, s, n) & (fs->n_buckets - 1)];
    uint64_t passed = 0;
    for (; i != NONE; i = fs->nodes[i].hnext, passed++) {
        const node *nd = &fs->nodes[i];
        if (nd->parent == parent && nd->name_len == n && memcmp(name_of(fs, nd), s, n) == 0)
            break;
    }
    step(fs, passed); /* spent, the next name walked says so */
    return i;
}

static bool rehash(fc_oci_fs *fs)
{
    size_t nb = fs->n_buckets * 2;
    uint32_t *b = malloc(nb * sizeof *b);
    if (!b)
        return false;
    memset(b, 0xff, nb * sizeof *b);
    for (size_t i = 1; i < fs->n_nodes; i++) {
        node *nd = &fs->nodes[i];
        if (nd->kind == KIND_FREE)
            continue;
        size_t h = hash(nd->parent, name_of(fs, nd), nd->name_len) & (nb - 1);
        nd->hnext = b[h];
        b[h] = (uint32_t)i;
    }
    free(fs->buckets);
    fs->buckets = b;
    fs->n_buckets = nb;
    return true;
}

/* A new node NAME under directory PARENT (which has no child of that name); NONE when out of
 * memory. */
static uint32_t make_node(fc_oci_fs *fs, uint32_t parent, const char *s, size_t n, uint8_t kind, uint32_t layer,
                       uint32_t entry)
{
    if ((fs->n_live + 1) * 2 > fs->n_buckets && !rehash(fs))
        return NONE;
    if (fs->names_len + n + 1 >= NONE || !fc_grow_array((void **)&fs->names, &fs->names_cap, fs->names_len + n + 1, 1, 64))
        return NONE;
    uint32_t name = (uint32_t)fs->names_len;
    memcpy(fs->names + name, s, n);
    fs->names[name + n] = '\0';
    fs->names_len += n + 1;
    uint32_t i;
    if (fs->free_nodes != NONE) {
        i = fs->free_nodes;
        fs->free_nodes = fs->nodes[i].next;
    } else {
        if (fs->n_nodes >= NONE || !fc_grow_array((void **)&fs->nodes, &fs->cap_nodes, fs->n_nodes + 1, sizeof *fs->nodes, 64))
            return NONE;
        i = (uint32_t)fs->n_nodes++;
    }
    node *p = &fs->nodes[parent];
    size_t h = hash(parent, s, n) & (fs->n_buckets - 1);
    fs->nodes[i] = (node){.parent = parent, .child = NONE, .next = p->child, .prev = NONE, .hnext = fs->buckets[h],
                          .name = name, .name_len = (uint32_t)n, .layer = layer, .entry = entry, .kind = kind};
    if (p->child != NONE)
        fs->nodes[p->child].prev = i;
    p->child = i;
    fs->buckets[h] = i;
    fs->n_live++;
    return i;
}

static void unhash(fc_oci_fs *fs, uint32_t i)
{
    node *nd = &fs->nodes[i];
    uint32_t *slot = &fs->buckets[hash(nd->parent, name_of(fs, nd), nd->name_len) & (fs->n_buckets - 1)];
    while (*slot != i)
        slot = &fs->nodes[*slot].hnext;
    *slot = nd->hnext;
}

/* Removes node I and everything under it. */
static void remove_tree(fc_oci_fs *fs, uint32_t i)
{
    node *nd = &fs->nodes[i];
    /* Out of its parent's list first. */
    if (nd->prev != NONE)
        fs->nodes[nd->prev].next = nd->next;
    else
        fs->nodes[nd->parent].child = nd->next;
    if (nd->next != NONE)
        fs->nodes[nd->next].prev = nd->prev;
    /* Then the subtree, depth first, without recursion: a node's children are freed before
     * it, its next sibling after. */
    uint32_t cur = i;
    nd->next = NONE;
    while (cur != NONE) {
        node *c = &fs->nodes[cur];
        if (c->child != NONE) {
            uint32_t first = c->child;
            c->child = NONE;
            /* Descend: the children's chain ends where the parent's siblings go on. */
            uint32_t last = first;
            while (fs->nodes[last].next != NONE)
                last = fs->nodes[last].next;
            fs->nodes[last].next = c->next;
            c->next = first;
        }
        uint32_t after = c->next;
        unhash(fs, cur);
        c->kind = KIND_FREE;
        c->next = fs->free_nodes;
        fs->free_nodes = cur;
        fs->n_live--;
        cur = after;
    }
}

static void clear_children(fc_oci_fs *fs, uint32_t dir)
{
    while (fs->nodes[dir].child != NONE)
        remove_tree(fs, fs->nodes[dir].child);
}

static const char *link_target(const fc_oci_fs *fs, const node *nd)
{
    if (nd->layer >= fs->n_layers)
        return "";
    const fc_oci_layer *L = fs->layers[nd->layer];
    const char *t = fc_oci_name(L, L->entries[nd->entry].link);
    return t ? t : "";
}

typedef enum walk_result {
    WALK_FOUND,     /* *OUT is what the path names */
    WALK_MISSING,   /* a name is not there: *OUT is the directory it would be in */
    WALK_NOTDIR,    /* a name on the way is not a directory */
    WALK_LOOP,      /* more than MAX_LINKS links */
    WALK_BUDGET,    /* WALK_STEPS spent */
    WALK_NOMEM,
} walk_result;

/* Walks PATH from directory DIR: every name looked up, links on the way followed (the last
 * one too when FOLLOW_LAST), missing directories made when CREATE (for layer LAYER). On
 * WALK_MISSING, *OUT is the directory the missing name would be in. OWN_LINKS_ONLY (layer
 * LAYER placing its entries): a symbolic link a lower layer made is not followed but replaced
 * by a directory of LAYER, as the container sees it (below). */
static walk_result walk(fc_oci_fs *fs, uint32_t dir, const char *path, bool follow_last, bool create,
                        uint32_t layer, uint32_t *out, bool own_links_only)
{
    /* The names still to walk, kept at the end of fs->buf so that a link's target can be put
     * before them. */
    size_t n = strlen(path);
    if (!fc_grow_array((void **)&fs->buf, &fs->buf_cap, n + 1, 1, 64))
        return WALK_NOMEM;
    size_t start = fs->buf_cap - n - 1;
    memcpy(fs->buf + start, path, n + 1);
    if (*path == '/')
        dir = ROOT;
    unsigned links = 0;
    uint32_t cur = dir;
    for (;;) {
        if (!step(fs, 1))
            return WALK_BUDGET;
        char *p = fs->buf + start;
        while (*p == '/')
            p++;
        if (!*p) {
            *out = cur;
            return WALK_FOUND;
        }
        size_t k = strcspn(p, "/");
        const char *rest = p + k;
        bool last = true;
        for (const char *q = rest; *q; q++)
            if (*q != '/') {
                last = false;
                break;
            }
        start = (size_t)(rest - fs->buf);
        if (k == 1 && p[0] == '.')
            continue;
        if (k == 2 && p[0] == '.' && p[1] == '.') {
            cur = fs->nodes[cur].parent;
            continue;
        }
        uint32_t c = lookup(fs, cur, p, k);
        if (c == NONE) {
            if (!create) {
                *out = cur;
                return WALK_MISSING;
            }
            if ((c = make_node(fs, cur, p, k, FC_OCI_DIR, layer, NONE)) == NONE)
                return WALK_NOMEM;
        }
        const node *nd = &fs->nodes[c];
        if (own_links_only && nd->kind == FC_OCI_SYMLINK && nd->layer != layer && (!last || follow_last)) {
            /* Docker (overlay2) and containerd (overlayfs) write a layer into a directory of its
             * own, where a lower layer's link does not exist: the names on its way are made as
             * directories, and in the mounted image that directory hides the link below it.
             * Followed, a whiteout or a file under /lib (a link to usr/lib) deleted or replaced
             * the file in /usr/lib that the container still sees (red-team review of 2026-12-05,
             * finding 3). Only the naive snapshotter follows it; what it would hide is kept. */
            remove_tree(fs, c);
            if ((c = make_node(fs, cur, p, k, FC_OCI_DIR, layer, NONE)) == NONE)
                return WALK_NOMEM;
            nd = &fs->nodes[c];
        }
        if (nd->kind == FC_OCI_SYMLINK && (!last || follow_last)) {
            if (++links > MAX_LINKS)
                return WALK_LOOP;
            /* The target goes before what is left of the path. */
            const char *t = link_target(fs, nd);
            size_t tn = strlen(t), left = fs->buf_cap - start;
            if (!step(fs, (tn + (tn + 1 > start ? left : 0)) / 64))
                return WALK_BUDGET;
            if (tn + 1 > start) {
                size_t more = fs->buf_cap + tn + 1;
                char *nb = malloc(more);
                if (!nb)
                    return WALK_NOMEM;
                memcpy(nb + more - left, fs->buf + start, left);
                free(fs->buf);
                fs->buf = nb;
                fs->buf_cap = more;
                start = more - left;
            }
            start -= tn + 1;
            memcpy(fs->buf + start, t, tn);
            fs->buf[start + tn] = '/';
            if (*t == '/')
                cur = ROOT;
            continue;
        }
        if (last) {
            *out = c;
            return WALK_FOUND;
        }
        if (nd->kind != FC_OCI_DIR)
            return WALK_NOTDIR;
        cur = c;
    }
}

/* Splits "a/b/c" at its last '/': the parent part goes to BUF ("a/b", or "" for the root). */
static const char *split(const char *path, char **buf, size_t *cap, bool *nomem)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (!fc_grow_array((void **)buf, cap, n + 1, 1, 64)) {
        *nomem = true;
        return NULL;
    }
    memcpy(*buf, path, n);
    (*buf)[n] = '\0';
    return slash ? slash + 1 : path;
}

typedef struct applier {
    fc_oci_fs *fs;
    const fc_oci_layer *L;
    uint32_t layer;
    void (*problem)(void *ctx, const char *line);
    void *ctx;
    char *parent;
    size_t parent_cap;
    bool nomem;
} applier;

static void say(applier *ap, const char *path, const char *what)
{
    char line[700];
    snprintf(line, sizeof line, "%.400s: %s", path, what);
    ap->problem(ap->ctx, line);
}

/* The image's WALK_STEPS are spent, at PATH: said once; nothing after it is placed. */
static void over_budget(applier *ap, const char *path)
{
    if (ap->fs->budget_said)
        return;
    ap->fs->budget_said = true;
    char what[200];
    snprintf(what, sizeof what, "placing the image's files and resolving its symbolic links took more than %llu "
             "names walked; this entry and every one after it are left out", (unsigned long long)WALK_STEPS);
    say(ap, path, what);
}

/* The directory that holds PATH's last name, made when CREATE; NONE (said) when there is none. */
static uint32_t parent_of(applier *ap, const char *path, bool create, const char **base, bool own_links_only)
{
    *base = split(path, &ap->parent, &ap->parent_cap, &ap->nomem);
    if (!*base)
        return NONE;
    uint32_t dir;
    walk_result w = walk(ap->fs, ROOT, ap->parent, true, create, ap->layer, &dir, own_links_only);
    if (w == WALK_FOUND && ap->fs->nodes[dir].kind == FC_OCI_DIR)
        return dir;
    if (w == WALK_NOMEM)
        ap->nomem = true;
    else if (w == WALK_BUDGET)
        over_budget(ap, path);
    else if (w == WALK_LOOP)
        say(ap, path, "a symbolic link loop on the way; left out");
    else if (create && (w == WALK_NOTDIR || w == WALK_FOUND))
        say(ap, path, "a name on the way is not a directory; left out");
    return NONE;
}

static void hide(applier *ap, const fc_oci_entry *e)
{
    const char *path = fc_oci_name(ap->L, e->path), *base;
    if (e->kind == FC_OCI_OPAQUE) {
        uint32_t dir;
        walk_result w = walk(ap->fs, ROOT, path, true, false, ap->layer, &dir, true);
        if (w == WALK_FOUND && ap->fs->nodes[dir].kind == FC_OCI_DIR)
            clear_children(ap->fs, dir);
        else if (w == WALK_LOOP)
            say(ap, *path ? path : "/", "a symbolic link loop on the way to the directory it makes opaque");
        else if (w == WALK_BUDGET)
            over_budget(ap, *path ? path : "/");
        else if (w == WALK_NOMEM)
            ap->nomem = true;
        return;
    }
    uint32_t dir = parent_of(ap, path, false, &base, true);
    if (dir == NONE)
        return;
    uint32_t c = lookup(ap->fs, dir, base, strlen(base));
    if (c != NONE)
        remove_tree(ap->fs, c);
}

static void add(applier *ap, uint32_t index, const fc_oci_entry *e)
{
    fc_oci_fs *fs = ap->fs;
    const char *path = fc_oci_name(ap->L, e->path), *base;
    uint8_t kind = e->kind;
    uint32_t layer = ap->layer, entry = index;
    if (kind == FC_OCI_HARDLINK) {
        /* The file its target names now; its last name is not followed, as link(2) does. */
        uint32_t dir, t = NONE;
        const char *target = fc_oci_name(ap->L, e->link);
        if ((dir = parent_of(ap, target, false, &base, false)) != NONE)
            t = lookup(fs, dir, base, strlen(base));
        if (t == NONE) {
            if (!ap->nomem)
                say(ap, path, "a hard link to a file the image does not hold here; left out");
            return;
        }
        if (fs->nodes[t].kind == FC_OCI_DIR) {
            say(ap, path, "a hard link to a directory; left out");
            return;
        }
        kind = fs->nodes[t].kind;
        layer = fs->nodes[t].layer;
        entry = fs->nodes[t].entry;
    }
    uint32_t dir = parent_of(ap, path, true, &base, true);
    if (dir == NONE)
        return;
    size_t bn = strlen(base);
    uint32_t c = lookup(fs, dir, base, bn);
    if (c != NONE) {
        if (kind == FC_OCI_DIR && fs->nodes[c].kind == FC_OCI_DIR) {
            fs->nodes[c].layer = layer;
            return;
        }
        remove_tree(fs, c);
    }
    if (make_node(fs, dir, base, bn, kind, layer, entry) == NONE)
        ap->nomem = true;
}

bool fc_oci_fs_apply(fc_oci_fs *fs, const fc_oci_layer *L, uint32_t layer, void (*problem)(void *ctx, const char *line),
                     void *ctx)
{
    if (layer >= fs->n_layers) {
        if (!fc_grow_array((void **)&fs->layers, &fs->cap_layers, (size_t)layer + 1, sizeof *fs->layers, 64))
            return false;
        for (size_t i = fs->n_layers; i <= layer; i++)
            fs->layers[i] = NULL;
        fs->n_layers = (size_t)layer + 1;
    }
    fs->layers[layer] = L;
    applier ap = {.fs = fs, .L = L, .layer = layer, .problem = problem, .ctx = ctx};
    /* Whiteouts hide only what lies below, whatever their place in the layer. */
    for (size_t i = 0; i < L->n_entries && !ap.nomem; i++)
        if (L->entries[i].kind == FC_OCI_WHITEOUT || L->entries[i].kind == FC_OCI_OPAQUE)
            hide(&ap, &L->entries[i]);
    for (size_t i = 0; i < L->n_entries && !ap.nomem; i++)
        if (L->entries[i].kind != FC_OCI_WHITEOUT && L->entries[i].kind != FC_OCI_OPAQUE)
            add(&ap, (uint32_t)i, &L->entries[i]);
    free(ap.parent);
    return !ap.nomem;
}

/* ---- Walking the result -------------------------------------------------------------------- */

static int by_name(const void *a, const void *b, void *ctx)
{
    const fc_oci_fs *fs = ctx;
    const node *x = &fs->nodes[*(const uint32_t *)a], *y = &fs->nodes[*(const uint32_t *)b];
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(fs->names + x->name, fs->names + y->name, n);
    return c ? c : (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

/* A directory being walked: its children sorted, and how far. */
typedef struct frame {
    uint32_t *kids;
    size_t n, at;
    size_t path_len; /* of the directory's path */
} frame;

int fc_oci_fs_walk(fc_oci_fs *fs, int (*fn)(void *ctx, const fc_oci_found *f, bool loop), void *ctx)
{
    frame *stack = NULL;
    size_t depth = 0, cap = 0;
    char *path = NULL;
    size_t path_cap = 0;
    int rc = 0;
    uint32_t dir = ROOT;
    size_t dir_len = 0;
    if (!fc_grow_array((void **)&path, &path_cap, 1, 1, 64))
        return -1;
    path[0] = '\0';
    for (;;) {
        /* Open DIR: its children, sorted by name. */
        if (!fc_grow_array((void **)&stack, &cap, depth + 1, sizeof *stack, 64)) {
            rc = -1;
            break;
        }
        frame *f = &stack[depth++];
        *f = (frame){.path_len = dir_len};
        size_t kcap = 0;
        for (uint32_t c = fs->nodes[dir].child; c != NONE; c = fs->nodes[c].next) {
            if (!fc_grow_array((void **)&f->kids, &kcap, f->n + 1, sizeof *f->kids, 64)) {
                rc = -1;
                break;
            }
            f->kids[f->n++] = c;
        }
        if (rc)
            break;
        if (f->n > 1)
            qsort_r(f->kids, f->n, sizeof *f->kids, by_name, fs);
        /* Go through them until a directory is met (then descend) or the end (then climb). */
        bool descended = false;
        while (!descended && depth) {
            f = &stack[depth - 1];
            if (f->at == f->n) {
                free(f->kids);
                depth--;
                continue;
            }
            uint32_t c = f->kids[f->at++];
            const node *nd = &fs->nodes[c];
            size_t need = f->path_len + 1 + nd->name_len + 1;
            if (!fc_grow_array((void **)&path, &path_cap, need, 1, 64)) {
                rc = -1;
                break;
            }
            path[f->path_len] = '/';
            memcpy(path + f->path_len + 1, name_of(fs, nd), nd->name_len);
            path[need - 1] = '\0';
            if (nd->kind == FC_OCI_DIR) {
                dir = c;
                dir_len = need - 1;
                descended = true;
            } else if (nd->kind == FC_OCI_FILE) {
                fc_oci_found found = {path, nd->layer, nd->entry};
                if ((rc = fn(ctx, &found, false)) != 0)
                    break;
            } else if (nd->kind == FC_OCI_SYMLINK && !fs->links_unchecked) {
                uint32_t out;
                walk_result w = walk(fs, nd->parent, link_target(fs, nd), true, false, NONE, &out, false);
                fs->links_unchecked = w == WALK_BUDGET; /* the files are still walked */
                if (w == WALK_NOMEM) {
                    rc = -1;
                    break;
                }
                /* The walk's buffer may have moved; PATH is ours. */
                if (w == WALK_LOOP) {
                    fc_oci_found found = {path, nd->layer, nd->entry};
                    if ((rc = fn(ctx, &found, true)) != 0)
                        break;
                }
            }
        }
        if (rc || !descended)
            break;
    }
    for (size_t i = 0; i < depth; i++)
        free(stack[i].kids);
    free(stack);
    free(path);
    return rc;
}

bool fc_oci_fs_links_unchecked(const fc_oci_fs *fs)
{
    return fs->links_unchecked && !fs->budget_said;
}

bool fc_oci_fs_open(fc_oci_fs *fs, const char *path, fc_oci_found *out, char *buf, size_t size)
{
    uint32_t n;
    fs->metered = false; /* one lookup: bounded by MAX_LINKS */
    walk_result w = walk(fs, ROOT, path, true, false, NONE, &n, false);
    fs->metered = true;
    if (w != WALK_FOUND || fs->nodes[n].kind != FC_OCI_FILE)
        return false;
    /* Its own path, from the root. */
    size_t len = 0;
    for (uint32_t i = n; i != ROOT; i = fs->nodes[i].parent)
        len += 1 + fs->nodes[i].name_len;
    if (len + 1 > size)
        return false;
    buf[len] = '\0';
    for (uint32_t i = n; i != ROOT; i = fs->nodes[i].parent) {
        const node *nd = &fs->nodes[i];
        len -= nd->name_len;
        memcpy(buf + len, name_of(fs, nd), nd->name_len);
        buf[--len] = '/';
    }
    *out = (fc_oci_found){buf, fs->nodes[n].layer, fs->nodes[n].entry};
    return true;
}
