/* kernels.c - the kernels an image holds: entry points and device functions of a cubin
 * (read as ELF from memory), or the .entry and .func names of PTX; per-kernel registers
 * and static shared memory where the cubin records them; names demangled with libiberty,
 * the GNU demangler. Images of one object are read in parallel, each thread holding one
 * decompressed image at a time. */
#include <gelf.h>
#include <libelf.h>
#include <libiberty/demangle.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "decode.h"
#include "elf_header.h"
#include "fatcheck.h"
#include "file_map.h"
#include "grow.h"
#include "name_pool.h"
#include "pool.h"

#define STO_CUDA_ENTRY 0x10      /* st_other of a __global__ function (seen in every cubin) */
#define EIATTR_REGCOUNT 0x2f     /* .nv.info attribute: {u32 symbol, u32 registers} */
#define EIFMT_SVAL 0x04
#define DEMANGLE_UNLIMITED 4096u
/* Worker stacks: room for the demangler's recursion on names of DEMANGLE_UNLIMITED bytes
 * (a few hundred bytes a level); only the pages used count against memory. */
#define KERNEL_WORKER_STACK (16u << 20)

/* A list's strings live in a name pool, shared by the lists of one object (name_pool.h). */
struct fc_kernel_list_store {
    fc_name_pool *pool;
};

/* The demangled form of NAME[0..len), or NULL: C++ names only. libiberty stops at a nesting
 * depth of 2,048 to protect its stack; cuBLASLt's longest template names (2.5 KB) go deeper,
 * as c++filt -r shows. Depth is bounded by the name's length, so names up to
 * DEMANGLE_UNLIMITED bytes are demangled without the limit, on threads with stacks sized for
 * it; longer ones keep it. */
/* A demangled name is built through libiberty's callback interface, which allocates nothing,
 * into at most DEMANGLED_MAX bytes: a name whose substitutions nest doubles with each level
 * (a 323-byte PTX file's one name took 1.1 GB and 12 s). Past the bound the demangler is left
 * with longjmp, and the mangled name is kept. */
#define DEMANGLED_MAX (64u << 10)

typedef struct demangled {
    char *buf;
    size_t len, cap;
    bool nomem;
    jmp_buf out;
} demangled;

static void collect(const char *s, size_t n, void *opaque)
{
    demangled *d = opaque;
    if (n > DEMANGLED_MAX - d->len)
        longjmp(d->out, 1);
    if (d->len + n + 1 > d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 256;
        while (cap < d->len + n + 1)
            cap *= 2;
        char *p = realloc(d->buf, cap);
        if (!p) {
            d->nomem = true;
            longjmp(d->out, 1);
        }
        d->buf = p;
        d->cap = cap;
    }
    memcpy(d->buf + d->len, s, n);
    d->len += n;
    d->buf[d->len] = '\0';
}

static char *demangle(const char *name, size_t len, bool *nomem)
{
    if (len <= 2 || name[0] != '_' || name[1] != 'Z')
        return NULL;
    /* NAME lies in the image, not NUL-terminated; the state is not an automatic object, whose
     * value a longjmp would leave indeterminate */
    char *z = malloc(len + 1);
    demangled *d = calloc(1, sizeof *d);
    if (!z || !d) {
        free(z);
        free(d);
        *nomem = true;
        return NULL;
    }
    memcpy(z, name, len);
    z[len] = '\0';
    int flags = DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES | (len <= DEMANGLE_UNLIMITED ? DMGL_NO_RECURSE_LIMIT : 0);
    char *dm = NULL;
    if (setjmp(d->out) == 0 && cplus_demangle_v3_callback(z, flags, collect, d) && d->buf)
        dm = d->buf;
    else
        free(d->buf);
    *nomem = d->nomem;
    free(z);
    free(d);
    return dm;
}

static bool add_kernel(fc_kernel_list *l, const char *name, size_t len, bool entry)
{
    fc_kernel *p = fc_grow(l->items, &l->cap, l->n + 1, sizeof *p, 16);
    if (!p)
        return false;
    l->items = p;
    fc_kernel *k = &l->items[l->n];
    memset(k, 0, sizeof *k);
    struct fc_kernel_list_store *st = l->store;
    if (!fc_name_pool_get(st->pool, name, len, demangle, &k->name, &k->demangled))
        return false;
    k->entry = entry;
    k->registers = -1;
    k->shared_bytes = -1;
    l->n++;
    return true;
}

/* The kernels listed so far, by name: PTX lists each name once however often it is declared,
 * and cubins give static shared memory per kernel in sections named after them, so every
 * name is looked up; a linear search made that quadratic (80,000 PTX entries took 9 s).
 * Open addressing over kernel indices, each slot keeping its name's hash. */
typedef struct name_index {
    uint32_t *slots;  /* kernel index + 1; 0 for an empty slot */
    uint32_t *hashes;
    size_t n, cap;
} name_index;

static uint32_t name_hash(const char *s, size_t n)
{
    return (uint32_t)fc_name_hash(s, n);
}

/* The slot holding NAME (LEN bytes, hash H), or the empty slot where it would go. */
static size_t index_slot(const name_index *x, const fc_kernel_list *l, const char *name, size_t len, uint32_t h)
{
    size_t i = h & (x->cap - 1);
    for (; x->slots[i]; i = (i + 1) & (x->cap - 1)) {
        const char *k = l->items[x->slots[i] - 1].name;
        if (x->hashes[i] == h && strncmp(k, name, len) == 0 && k[len] == '\0')
            return i;
    }
    return i;
}

/* The first kernel listed as NAME (LEN bytes from the input, which may hold NUL bytes: a
 * listed name never does, so such a name is never found), or NULL. */
static fc_kernel *index_find(const name_index *x, fc_kernel_list *l, const char *name, size_t len)
{
    if (!x->cap || memchr(name, '\0', len))
        return NULL;
    size_t i = index_slot(x, l, name, len, name_hash(name, len));
    return x->slots[i] ? &l->items[x->slots[i] - 1] : NULL;
}

/* Adds l->items[K] under its name, unless a kernel of that name is there already (the
 * first keeps it, as a search from the start would find). False when out of memory. */
static bool index_add(name_index *x, const fc_kernel_list *l, size_t k)
{
    if (k >= UINT32_MAX)
        return false;
    if ((x->n + 1) * 2 > x->cap) {
        name_index b = {NULL, NULL, 0, x->cap ? x->cap * 2 : 64};
        if (b.cap > SIZE_MAX / sizeof *b.slots || !(b.slots = calloc(b.cap, sizeof *b.slots)) ||
            !(b.hashes = malloc(b.cap * sizeof *b.hashes))) {
            free(b.slots);
            return false;
        }
        for (size_t i = 0; i < x->cap; i++)
            if (x->slots[i]) {
                size_t j = x->hashes[i] & (b.cap - 1);
                while (b.slots[j])
                    j = (j + 1) & (b.cap - 1);
                b.slots[j] = x->slots[i];
                b.hashes[j] = x->hashes[i];
            }
        b.n = x->n;
        free(x->slots);
        free(x->hashes);
        *x = b;
    }
    const char *name = l->items[k].name;
    size_t len = strlen(name);
    uint32_t h = name_hash(name, len);
    size_t i = index_slot(x, l, name, len, h);
    if (!x->slots[i]) {
        x->slots[i] = (uint32_t)k + 1;
        x->hashes[i] = h;
        x->n++;
    }
    return true;
}

static void index_free(name_index *x)
{
    free(x->slots);
    free(x->hashes);
}

static fc_status cubin_kernels(fc_kernel_list *l, const uint8_t *img, size_t size, const fc_options *opts)
{
    /* A damaged class or byte-order byte would have libelf read another layout, and find
     * no symbols: an error, not an empty list (fc_elf_cubin_open). */
    fc_status st;
    Elf *elf = fc_elf_cubin_open(img, size, opts, &st);
    if (!elf)
        return st;
    size_t *by_symbol = NULL;
    name_index by_name = {0};
    bool indexed = false;
    GElf_Ehdr eh;
    size_t shstrndx;
    if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx) != 0) {
        st = FC_ERR_FORMAT;
        goto cleanup;
    }
    l->elf_arch = fc_elf_cubin_sm(&eh);
    /* First the functions, then their attributes: registers in .nv.info, static shared
     * memory as the size of .nv.shared.<name>. */
    Elf_Data *symdata = NULL;
    size_t nsyms = 0, symstr = 0;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
            continue;
        /* Count from the data libelf actually holds, not the header's claim: sh_size is as
         * untrusted as the rest, and the table below is sized by it. */
        symdata = elf_getdata(scn, NULL);
        nsyms = symdata ? symdata->d_size / sh.sh_entsize : 0;
        symstr = sh.sh_link;
        break;
    }
    /* Entry points whatever their binding (a kernel with internal linkage is LOCAL); other
     * functions only when global and given resources below (compiler helpers such as
     * $__internal_0_$__cuda_sm70_shflsync_bfly_p have none; cuobjdump -res-usage leaves
     * them out too). */
    /* symbol index -> kernel index + 1, for the attributes below (0: not a kernel) */
    by_symbol = calloc(nsyms ? nsyms : 1, sizeof *by_symbol);
    if (!by_symbol) {
        st = FC_ERR_NOMEM;
        goto cleanup;
    }
    for (size_t i = 1; symdata && i < nsyms; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(symdata, (int)i, &sym))
            break;
        const char *name = elf_strptr(elf, symstr, sym.st_name);
        bool entry = (sym.st_other & STO_CUDA_ENTRY) != 0;
        if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF || !name || !*name ||
            (!entry && GELF_ST_BIND(sym.st_info) == STB_LOCAL))
            continue;
        if (!add_kernel(l, name, strlen(name), entry)) {
            st = FC_ERR_NOMEM;
            goto cleanup;
        }
        by_symbol[i] = l->n;
    }
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        const char *sname;
        if (!gelf_getshdr(scn, &sh) || !(sname = elf_strptr(elf, shstrndx, sh.sh_name)))
            continue;
        if (strncmp(sname, ".nv.shared.", 11) == 0) {
            /* The index is made when the first such section comes. */
            for (size_t i = 0; !indexed && i < l->n; i++)
                if (!index_add(&by_name, l, i)) {
                    st = FC_ERR_NOMEM;
                    goto cleanup;
                }
            indexed = true;
            fc_kernel *k = index_find(&by_name, l, sname + 11, strlen(sname + 11));
            if (k)
                k->shared_bytes = (int64_t)sh.sh_size;
        } else if (strncmp(sname, ".nv.info", 8) == 0 && sh.sh_type != SHT_NOBITS) {
            Elf_Data *d = elf_rawdata(scn, NULL);
            const uint8_t *p = d ? d->d_buf : NULL;
            size_t n = d ? d->d_size : 0;
            /* Attributes: u8 format, u8 attribute, u16 size (for sized formats), value. */
            for (size_t at = 0; p && at + 4 <= n;) {
                uint8_t fmt = p[at], attr = p[at + 1];
                uint16_t len = fc_rd16(p + at + 2);
                size_t next = fmt == EIFMT_SVAL ? at + 4 + len : at + 4;
                if (next > n)
                    break;
                if (fmt == EIFMT_SVAL && attr == EIATTR_REGCOUNT && len == 8) {
                    uint32_t idx = fc_rd32(p + at + 4);
                    if (idx < nsyms && by_symbol[idx])
                        l->items[by_symbol[idx] - 1].registers = (int)fc_rd32(p + at + 8);
                }
                at = next;
            }
        }
    }
    free(by_symbol);
    by_symbol = NULL;
    if (st == FC_OK) {
        size_t kept = 0;
        for (size_t i = 0; i < l->n; i++)
            if (l->items[i].entry || l->items[i].registers >= 0)
                l->items[kept++] = l->items[i];
        l->n = kept;
    }
cleanup:
    free(by_symbol);
    index_free(&by_name);
    elf_end(elf);
    return st;
}

/* PTX: ".entry NAME(" and ".func [(ret)] NAME(". */
/* Blanks as ptxas takes them: a form feed and ^Z too (review of 2026-12-05, F2). */
static bool ptx_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\x1a';
}

/* The next token of PTX TEXT[*I..SIZE): a string ("...", backslash escapes kept in it), a run
 * of characters other than blanks, '"' and "(),;{}", or one of those; comments are passed over,
 * but not inside a string (a .file name holding "/ *" (no blank) hid every kernel after it: review of
 * 2026-12-05, F2). PTX is free-form: ptxas takes ".visible\t.entry\tk()" and ".entry" with the
 * name on the next line (such kernels went unlisted: review of 2026-12-04, K3). Returns its
 * length, 0 at the end. */
static size_t ptx_token(const char *text, size_t size, size_t *i, const char **tok)
{
    for (;;) {
        while (*i < size && ptx_blank(text[*i]))
            (*i)++;
        if (*i + 1 < size && text[*i] == '/' && text[*i + 1] == '/') {
            while (*i < size && text[*i] != '\n')
                (*i)++;
        } else if (*i + 1 < size && text[*i] == '/' && text[*i + 1] == '*') {
            *i += 2;
            while (*i + 1 < size && !(text[*i] == '*' && text[*i + 1] == '/'))
                (*i)++;
            *i = *i + 2 <= size ? *i + 2 : size;
        } else {
            break;
        }
    }
    if (*i >= size)
        return 0;
    *tok = text + *i;
    size_t start = *i;
    if (text[*i] == '"') {
        for ((*i)++; *i < size && text[*i] != '"' && text[*i] != '\n'; (*i)++)
            if (text[*i] == '\\' && *i + 1 < size)
                (*i)++;
        if (*i < size && text[*i] == '"')
            (*i)++;
        return *i - start;
    }
    if (strchr("(),;{}", text[*i])) {
        (*i)++;
        return 1;
    }
    while (*i < size && !ptx_blank(text[*i]) && !strchr("(),;{}\"", text[*i]) &&
           !(*i + 1 < size && text[*i] == '/' && (text[*i + 1] == '/' || text[*i + 1] == '*')))
        (*i)++;
    return *i - start;
}

static bool token_is(const char *tok, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(tok, word, len) == 0;
}

/* Passes over a parenthesised group whose "(" was just read; returns the token after it. */
static size_t ptx_skip_group(const char *text, size_t size, size_t *i, const char **tok)
{
    size_t depth = 1, len;
    while (depth && (len = ptx_token(text, size, i, tok)) != 0)
        if (len == 1 && **tok == '(')
            depth++;
        else if (len == 1 && **tok == ')')
            depth--;
    return depth ? 0 : ptx_token(text, size, i, tok);
}

static fc_status ptx_kernels(fc_kernel_list *l, const char *text, size_t size)
{
    name_index by_name = {0};
    fc_status st = FC_OK;
    size_t i = 0, len;
    const char *tok = NULL;
    bool external = false;
    /* The driver reads PTX up to its first NUL, as link_state.c does: what follows is never
     * compiled (review of 2026-12-05, F4: kernels past a NUL were listed). */
    const char *nul = memchr(text, '\0', size);
    if (nul)
        size = (size_t)(nul - text);
    while ((len = ptx_token(text, size, &i, &tok)) != 0) {
        if (token_is(tok, len, ".visible") || token_is(tok, len, ".weak"))
            continue;
        if (token_is(tok, len, ".extern")) {
            external = true;
            continue;
        }
        bool entry = token_is(tok, len, ".entry"), func = token_is(tok, len, ".func");
        if (!entry && !func) {
            external = false;
            continue;
        }
        /* Before the name: a function's return list, and directives such as
         * .attribute(.unified(...)) or .noreturn, each passed over. */
        len = ptx_token(text, size, &i, &tok);
        while (len) {
            if (len == 1 && *tok == '(')
                len = ptx_skip_group(text, size, &i, &tok);
            else if (*tok == '.' && len > 1) {
                len = ptx_token(text, size, &i, &tok);
                if (len == 1 && *tok == '(')
                    len = ptx_skip_group(text, size, &i, &tok);
            } else
                break;
        }
        if (len && !external && !strchr("(),;{}\"", *tok) && !index_find(&by_name, l, tok, len) &&
            (!add_kernel(l, tok, len, entry) || !index_add(&by_name, l, l->n - 1))) {
            st = FC_ERR_NOMEM;
            break;
        }
        external = false;
    }
    index_free(&by_name);
    return st;
}

void fc_kernel_list_free(fc_kernel_list *l)
{
    if (!l)
        return;
    struct fc_kernel_list_store *st = l->store;
    if (st)
        fc_name_pool_unref(st->pool);
    free(st);
    free(l->items);
    free(l);
}

/* fc_entry_kernels with a decompression buffer the caller keeps between images. */
static fc_status entry_kernels(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_buffer *scratch,
                               fc_name_pool *pool, fc_kernel_list **out)
{
    *out = NULL;
    if (!obj->image || (e->kind != FC_IMAGE_CUBIN && e->kind != FC_IMAGE_PTX))
        return FC_ERR_UNSUPPORTED;
    if (e->obfuscated)
        return FC_ERR_UNSUPPORTED;
    const uint8_t *src;
    size_t n;
    fc_status got = fc_entry_image(obj, e, opts, scratch, &src, &n);
    if (got != FC_OK)
        return got;
    fc_kernel_list *l = calloc(1, sizeof *l);
    fc_status st = FC_ERR_NOMEM;
    struct fc_kernel_list_store *store = l ? calloc(1, sizeof *store) : NULL;
    if (store) {
        l->store = store;
        store->pool = fc_name_pool_ref(pool);
        l->image_size = n;
        st = e->kind != FC_IMAGE_CUBIN ? ptx_kernels(l, (const char *)src, n) : cubin_kernels(l, src, n, opts);
    }
    if (!fc_entry_stored_done(obj, e) && st == FC_OK) /* the stored bytes are read; their pages go */
        st = FC_ERR_IO;
    if (st != FC_OK) {
        fc_kernel_list_free(l);
        return st;
    }
    l->arch_mismatch = e->kind == FC_IMAGE_CUBIN && l->elf_arch != e->arch;
    *out = l;
    return FC_OK;
}

fc_status fc_entry_kernels(fc_kernel_list **out, const fc_object *obj, const fc_entry *e, const fc_options *opts)
{
    /* Refused here, as every function taking options does: below, only a compressed image's
     * reading would notice (an uncompressed cubin's gave FC_ERR_LIMIT, a PTX image's none). */
    fc_options defaults;
    *out = NULL;
    if (!(opts = fc_options_resolve(opts, &defaults)))
        return FC_ERR_INVALID;
    fc_buffer scratch = {0};
    fc_name_pool *pool = fc_name_pool_new(1); /* the list's own */
    fc_status st = pool ? entry_kernels(obj, e, opts, &scratch, pool, out) : FC_ERR_NOMEM;
    fc_name_pool_unref(pool);
    free(scratch.p);
    return st;
}

/* ---- Every entry of an object, spread over threads -------------------------------------- */

/* The decompression buffers of all threads together stay under this many bytes (beyond it a
 * thread waits), so that the kernel view's memory does not grow with the thread count; an
 * image larger than it is decompressed while no other buffer is held. */
#define KERNEL_BUFFER_BUDGET (96u << 20)

/* At most this many threads read one object's images, whatever -j says: each thread past it
 * kept more of its own memory (its allocator arena, its lists' growth) than the budget above
 * bounds. libtorch_cuda.so on the H200 (16 CPUs): 223 MB at -j 16, 245-287 MB at -j 64 and
 * -j 128 (runs 40-42), over the 256 MiB the kernel view is to stay within. */
#define KERNEL_THREADS_MAX 16

typedef struct kernels_job {
    const fc_object *obj;
    const fc_options *opts;
    const fc_entry **entries;
    fc_kernel_list **lists;
    fc_status *status;
    fc_name_pool *pool;  /* the names of every list */
    size_t n, next;
    uint64_t held;       /* bytes of decompression buffers the threads hold */
    pthread_mutex_t lock;
    pthread_cond_t room; /* held went down */
} kernels_job;

/* Makes SCRATCH fit entry E's declared size within the budget: a thread that must grow its
 * buffer first gives it back, then waits until the others hold little enough (so two growing
 * threads never wait on each other). *MINE is what this thread holds. */
static void buffer_for(kernels_job *j, const fc_entry *e, fc_buffer *scratch, uint64_t *mine)
{
    uint64_t limit = j->opts ? j->opts->max_decompressed_size : UINT64_MAX;
    uint64_t need = e->compression == FC_COMPRESSION_NONE ? 0 : e->uncompressed_size;
    if (need > limit)
        need = limit; /* the decompressor refuses more */
    if (need <= scratch->cap)
        return;
    pthread_mutex_lock(&j->lock);
    j->held -= *mine;
    fc_buffer_free(scratch);
    *mine = 0;
    pthread_cond_broadcast(&j->room);
    while (j->held > 0 && j->held + need > KERNEL_BUFFER_BUDGET)
        pthread_cond_wait(&j->room, &j->lock);
    j->held += need;
    *mine = need;
    pthread_mutex_unlock(&j->lock);
}

static void *kernels_worker(void *arg)
{
    kernels_job *j = arg;
    fc_buffer scratch = {.map_large = true}; /* as large as this thread's largest image, within the budget */
    uint64_t mine = 0;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->lock);
        if (i >= j->n)
            break;
        buffer_for(j, j->entries[i], &scratch, &mine);
        j->status[i] = entry_kernels(j->obj, j->entries[i], j->opts, &scratch, j->pool, &j->lists[i]);
        if (scratch.cap > mine) { /* grown past the declared size: counted, not waited for */
            pthread_mutex_lock(&j->lock);
            j->held += scratch.cap - mine;
            mine = scratch.cap;
            pthread_mutex_unlock(&j->lock);
        }
    }
    fc_buffer_free(&scratch);
    pthread_mutex_lock(&j->lock);
    j->held -= mine;
    pthread_cond_broadcast(&j->room);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

fc_status fc_object_kernels(fc_kernel_list ***out, fc_status **status, size_t *n, const fc_object *obj,
                            const fc_options *opts)
{
    *out = NULL;
    *status = NULL;
    *n = 0;
    fc_options defaults;
    if (!(opts = fc_options_resolve(opts, &defaults)))
        return FC_ERR_INVALID;
    size_t total = 0;
    for (size_t c = 0; c < obj->n_containers; c++)
        total += obj->containers[c].n_entries;
    kernels_job j = {.obj = obj, .opts = opts, .n = total};
    j.entries = calloc(total ? total : 1, sizeof *j.entries);
    j.lists = calloc(total ? total : 1, sizeof *j.lists);
    j.status = calloc(total ? total : 1, sizeof *j.status);
    j.pool = fc_name_pool_new(64); /* shared by every thread's lists */
    if (!j.entries || !j.lists || !j.status || !j.pool) {
        fc_name_pool_unref(j.pool);
        free(j.entries);
        free(j.lists);
        free(j.status);
        return FC_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t c = 0; c < obj->n_containers; c++)
        for (size_t e = 0; e < obj->containers[c].n_entries; e++)
            j.entries[k++] = &obj->containers[c].entries[e];
    pthread_mutex_init(&j.lock, NULL);
    pthread_cond_init(&j.room, NULL);
    size_t nt = fc_thread_count(opts);
    if (nt > KERNEL_THREADS_MAX)
        nt = KERNEL_THREADS_MAX;
    if (nt > total)
        nt = total ? total : 1;
    pthread_t tids[FC_MAX_THREADS];
    size_t started = 0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, KERNEL_WORKER_STACK);
    for (size_t t = 1; t < nt; t++)
        if (pthread_create(&tids[started], &attr, kernels_worker, &j) == 0)
            started++;
    pthread_attr_destroy(&attr);
    kernels_worker(&j);
    for (size_t t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    pthread_mutex_destroy(&j.lock);
    pthread_cond_destroy(&j.room);
    fc_name_pool_unref(j.pool); /* the lists hold it now */
    free(j.entries);
    *out = j.lists;
    *status = j.status;
    *n = total;
    return FC_OK;
}

void fc_object_kernels_free(fc_kernel_list **lists, fc_status *status, size_t n)
{
    for (size_t i = 0; lists && i < n; i++)
        fc_kernel_list_free(lists[i]);
    free(lists);
    free(status);
}
