/* link_state.c - whether an image refers to symbols defined elsewhere (relocatable device code
 * that only device linking completes), and whether it was compiled to be linked at all.
 *
 * The evidence (docs/matching.md, "Link inputs", tests/oracle): on driver 580.159.04,
 * relocatable code (ET_REL cubins, PTX stored with the ptxas option --compile-only) never runs
 * as a module: eager loading refuses every such image (CUDA_ERROR_NOT_FOUND when it refers to
 * another translation unit, CUDA_ERROR_INVALID_IMAGE otherwise, even with nothing unresolved),
 * and lazy loading accepts it but fails its functions at their first use. It is a link input.
 * The driver's own linker (cuLinkComplete) completes one alone exactly when it refers to
 * nothing outside but vprintf, malloc, free and __assertfail, which the driver supplies.
 * PTX without --compile-only is compiled as a whole program: a call to an undefined function
 * fails the load (CUDA_ERROR_INVALID_PTX, "ptxas fatal: Unresolved extern function").
 */
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "elf_header.h"
#include "fatcheck.h"
#include "file_map.h"
#include "grow.h"
#include "name_pool.h"
#include "verdict_internal.h"

/* Functions the driver supplies to device code (its "system calls"). */
static bool driver_supplied(const char *name, size_t len)
{
    static const char *const names[] = {"vprintf", "malloc", "free", "__assertfail"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return true;
    return false;
}

/* What each_symbol read. */
typedef struct symbols_read {
    bool symtab;  /* a symbol table was found */
    bool damaged; /* a section header, a table or a symbol could not be read (that table is
                     left there; the rest is read on) */
} symbols_read;

/* Hands FN every symbol of ELF's symbol tables (SHT_SYMTAB) but each table's first, null one,
 * with its name (NULL where the string table does not hold it), until FN returns false. */
static symbols_read each_symbol(Elf *elf, bool (*fn)(void *ctx, const char *name, const GElf_Sym *sym), void *ctx)
{
    symbols_read r = {false, false};
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            r.damaged = true;
            continue;
        }
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !sh.sh_entsize) {
            r.damaged = true;
            continue;
        }
        r.symtab = true;
        size_t n = d->d_size / sh.sh_entsize; /* what libelf holds */
        for (size_t i = 1; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)i, &sym)) {
                r.damaged = true;
                break;
            }
            if (!fn(ctx, elf_strptr(elf, sh.sh_link, sym.st_name), &sym))
                return r;
        }
    }
    return r;
}

/* each_symbol's FN for cubin_link_state: stops at a symbol that must be defined elsewhere. */
static bool unresolved(void *ctx, const char *name, const GElf_Sym *sym)
{
    /* Weak undefined symbols (__UDT, .nv.reservedSmem.* in CUDA 13 cubins) need no
     * definition: the cubins that hold only those load and link alone. */
    if (sym->st_shndx != SHN_UNDEF || GELF_ST_BIND(sym->st_info) != STB_GLOBAL || !name || !*name ||
        driver_supplied(name, strlen(name)))
        return true;
    *(bool *)ctx = true;
    return false;
}

static fc_link_state cubin_link_state(const uint8_t *img, size_t size, const fc_options *opts)
{
    fc_status why;
    Elf *elf = fc_elf_cubin_open(img, size, opts, &why); /* a cubin libelf cannot be given: not read */
    if (!elf)
        return FC_LINK_UNKNOWN;
    fc_link_state st = FC_LINK_UNKNOWN;
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        goto cleanup;
    st = FC_LINK_SELF_CONTAINED;
    if (eh.e_type != ET_REL) /* linked: nothing left to resolve */
        goto cleanup;
    bool needs = false;
    each_symbol(elf, unresolved, &needs); /* what cannot be read is not counted, as before */
    if (needs)
        st = FC_LINK_UNRESOLVED;
cleanup:
    elf_end(elf);
    return st;
}

static bool is_ident(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

/* A name seen in a function declaration, by its bytes in the text. */
typedef struct ptx_name {
    const uint8_t *p;
    size_t len;
    bool defined;
} ptx_name;

/* The names in order of first sight, and an open-addressed index of them (1 + item number, 0
 * free): a linear search made a PTX file of 200,000 entry points take 40 s (20,000: 0.3 s). */
typedef struct ptx_names {
    ptx_name *items;
    size_t n, cap;
    size_t *index;
    size_t index_cap; /* a power of two, at least twice n */
    bool failed;
} ptx_names;

static size_t index_slot(const ptx_names *set, const uint8_t *p, size_t len)
{
    size_t i = (size_t)fc_name_hash((const char *)p, len) & (set->index_cap - 1);
    while (set->index[i]) {
        const ptx_name *m = &set->items[set->index[i] - 1];
        if (m->len == len && memcmp(m->p, p, len) == 0)
            break;
        i = (i + 1) & (set->index_cap - 1);
    }
    return i;
}

static bool index_grow(ptx_names *set)
{
    size_t cap = set->index_cap ? set->index_cap * 2 : 64;
    size_t *index = calloc(cap, sizeof *index);
    if (!index)
        return false;
    free(set->index);
    set->index = index;
    set->index_cap = cap;
    for (size_t k = 0; k < set->n; k++)
        set->index[index_slot(set, set->items[k].p, set->items[k].len)] = k + 1;
    return true;
}

static ptx_name *name_at(ptx_names *set, const uint8_t *p, size_t len)
{
    if ((set->n + 1) * 2 > set->index_cap && !index_grow(set)) {
        set->failed = true;
        return NULL;
    }
    size_t slot = index_slot(set, p, len);
    if (set->index[slot])
        return &set->items[set->index[slot] - 1];
    ptx_name *more = fc_grow(set->items, &set->cap, set->n + 1, sizeof *more, 16);
    if (!more) {
        set->failed = true;
        return NULL;
    }
    set->items = more;
    set->items[set->n] = (ptx_name){p, len, false};
    set->index[slot] = ++set->n;
    return &set->items[set->n - 1];
}

static void names_free(ptx_names *set)
{
    free(set->items);
    free(set->index);
}

/* Whether T[0..N) holds a byte outside ASCII: blocks of 64 tested branch-free (compilers
 * vectorise it). */
static bool has_non_ascii(const uint8_t *t, size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint8_t any = 0;
        for (size_t k = 0; k < 64; k++)
            any |= t[i + k];
        if (any & 0x80)
            return true;
    }
    for (; i < n; i++)
        if (t[i] & 0x80)
            return true;
    return false;
}

/* Whether T[0..N) holds a byte outside ASCII outside comments (ptx_scan reads comments and
 * strings the same way; a string counts as code here). */
static bool non_ascii_in_code(const uint8_t *t, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = fc_ptx_skip_trivia(t, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        if (t[i] >= 0x80)
            return true;
        if (t[i] == '"')
            for (i++; i < n && t[i] != '"' && t[i] != '\n'; i++)
                if (t[i] >= 0x80)
                    return true;
        i++;
    }
    return false;
}

/* Inside a body only braces count, and the comments and strings that may hide them: the index
 * of the first '{', '}', '"' or '/' at or after I, or N. Blocks of 64 bytes are tested
 * branch-free first, so bodies, nearly all of a module, are passed over at memory speed
 * rather than token by token (4x faster on a 27 MB module of CUB's kernels here). */
static size_t next_in_body(const uint8_t *t, size_t i, size_t n)
{
    for (; i + 64 <= n; i += 64) {
        unsigned hit = 0;
        for (size_t k = 0; k < 64; k++) {
            uint8_t c = t[i + k];
            hit |= (c == '{') | (c == '}') | (c == '"') | (c == '/');
        }
        if (hit)
            break;
    }
    while (i < n && t[i] != '{' && t[i] != '}' && t[i] != '"' && t[i] != '/')
        i++;
    return i;
}

/* The statements ptxas requires at the start of a module (F->headed): ".version M.m", then
 * ".target" naming the architecture; .address_size after them. decode/ptx_text.c reads them. */
static void ptx_directives(const uint8_t *t, size_t n, ptx_facts *f)
{
    fc_ptx_head h;
    fc_ptx_head_read(t, n, &h);
    f->isa_major = h.isa_major, f->isa_minor = h.isa_minor;
    f->headed = h.version && h.target_next;
    if (!f->headed)
        return;
    f->target_arch = h.arch, f->target_variant = h.variant;
    /* .address_size 32: what no ptxas or JIT of CUDA 13 compiles. */
    f->address_32 = h.address_size == 32;
    f->debug_target = h.debug;
}

/* ptx_scan, handing the functions it met to KEEP (pointers into TEXT) when not NULL. */
static void ptx_scan_names(const uint8_t *text, size_t size, ptx_facts *f, ptx_names *keep);

static void ptx_scan(const uint8_t *text, size_t size, ptx_facts *f)
{
    ptx_scan_names(text, size, f, NULL);
}

static void ptx_scan_names(const uint8_t *text, size_t size, ptx_facts *f, ptx_names *keep)
{
    memset(f, 0, sizeof *f);
    const uint8_t *nul = memchr(text, 0, size);
    size_t n = nul ? (size_t)(nul - text) : size; /* the driver reads up to a NUL */
    f->non_ascii = has_non_ascii(text, n);
    f->non_ascii_in_code = f->non_ascii && non_ascii_in_code(text, n); /* rare: read again */
    ptx_directives(text, n, f);
    const uint8_t *t = text;
    ptx_names names = {0};
    int depth = 0;
    /* At depth 0, a declaration: its linkage (.extern, .weak) and, for .func, its name. */
    bool linkage_extern = false, linkage_weak = false, in_func = false, var_extern = false, section = false;
    const uint8_t *fname = NULL;
    size_t fname_len = 0;
    int parens = 0;
    for (size_t i = 0; i < n;) {
        if (depth > 0) /* what lies between is neither a brace nor hides one */
            i = next_in_body(t, i, n);
        if (i >= n)
            break;
        size_t j = fc_ptx_skip_trivia(t, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        uint8_t c = t[i];
        if (c == '"') { /* a string (.file names): skipped whole */
            i++;
            while (i < n && t[i] != '"' && t[i] != '\n')
                i++;
            i++;
            continue;
        }
        if (c == '{') {
            if (depth == 0 && in_func && fname) {
                ptx_name *d = name_at(&names, fname, fname_len);
                if (d)
                    d->defined = true;
            }
            if (depth == 0)
                in_func = linkage_extern = linkage_weak = var_extern = false, fname = NULL;
            depth++;
            i++;
            continue;
        }
        if (c == '}') {
            if (--depth < 0)
                f->damaged = true, depth = 0;
            i++;
            continue;
        }
        if (depth == 0 && (c == '(' || c == ')')) {
            parens += c == '(' ? 1 : -1;
            i++;
            continue;
        }
        if (depth == 0 && c == ';') {
            if (in_func && fname && (linkage_extern || linkage_weak)) {
                if (!driver_supplied((const char *)fname, fname_len))
                    name_at(&names, fname, fname_len); /* declared only, so far */
            } else if (var_extern) {
                f->needs_outside = f->extern_var = true;
            }
            in_func = linkage_extern = linkage_weak = var_extern = false, fname = NULL;
            parens = 0;
            i++;
            continue;
        }
        if (!is_ident(c)) {
            i++;
            continue;
        }
        size_t start = i;
        while (i < n && is_ident(t[i]))
            i++;
        if (depth != 0)
            continue;
        size_t len = i - start;
        const uint8_t *w = t + start;
        if (section && len > 7 && memcmp(w, ".debug_", 7) == 0)
            f->debug_info = true; /* ".section .debug_info {...}": DWARF, as nvcc -G writes it */
        section = len == 8 && memcmp(w, ".section", 8) == 0;
        if (len == 7 && memcmp(w, ".extern", 7) == 0)
            linkage_extern = true;
        else if (len == 5 && memcmp(w, ".weak", 5) == 0)
            linkage_weak = true;
        else if ((len == 5 && memcmp(w, ".func", 5) == 0) || (len == 6 && memcmp(w, ".entry", 6) == 0))
            in_func = true, parens = 0;
        else if (linkage_extern && !in_func && ((len == 7 && memcmp(w, ".global", 7) == 0) ||
                                                (len == 6 && memcmp(w, ".const", 6) == 0)))
            var_extern = true;
        else if (in_func && !fname && parens == 0 && w[0] != '.')
            fname = w, fname_len = len; /* the name, after the return value's list */
    }
    if (depth != 0 || in_func || parens != 0) /* cut inside a body or a declaration */
        f->damaged = true;
    for (size_t k = 0; k < names.n; k++)
        if (!names.items[k].defined)
            f->calls_out = true;
    if (names.failed) { /* out of memory: say what is safe, that it may call out, and that
                          * the judgement lacks memory (a PTX file in a tar judged "none") */
        f->calls_out = true;
        fc_judge_out_of_memory();
    }
    f->needs_outside |= f->calls_out;
    if (keep)
        *keep = names;
    else
        names_free(&names);
}

fc_link_state fc_entry_link_state(const fc_object *obj, const fc_entry *e, const fc_options *opts)
{
    if (!obj->image || e->obfuscated || (e->kind != FC_IMAGE_CUBIN && e->kind != FC_IMAGE_PTX))
        return FC_LINK_UNKNOWN;
    fc_buffer scratch = {0};
    const uint8_t *src;
    size_t n;
    if (fc_entry_image(obj, e, opts, &scratch, &src, &n) != FC_OK) {
        free(scratch.p);
        return FC_LINK_UNKNOWN;
    }
    fc_link_state st = FC_LINK_UNKNOWN;
    if (e->kind == FC_IMAGE_CUBIN) {
        st = cubin_link_state(src, n, opts);
    } else {
        ptx_facts f;
        ptx_scan(src, n, &f);
        st = f.needs_outside ? FC_LINK_UNRESOLVED : FC_LINK_SELF_CONTAINED;
    }
    free(scratch.p);
    /* Bytes past the end of a file cut short meanwhile read as zeros (file_map.h). */
    if (obj->image_reclaimable &&
        fc_file_map_range_changed((const uint8_t *)obj->image + e->payload_offset, e->stored_size))
        return FC_LINK_UNKNOWN;
    return st;
}

/* Whether the JIT of a driver for CUDA DRIVER_CUDA (0: assumed new enough) cannot read text
 * with the bytes outside ASCII F found. CUDA 13.0's rejects any ("Unexpected non-ASCII
 * character"), in comments and strings too: driver 580.159.04 on tests/oracle's
 * kernels.utf8*.ptx, lazy and eager, and ptxas 13.0. Older ones read comments: ptxas 11.8 and
 * 12.4 compiled the same three files' comment cases, and failed a byte outside ASCII in a name
 * (11.8: "Parsing error"; 12.4 crashed); in a .file string 11.8 compiled it and 12.4 crashed,
 * so a string counts as code for them. No driver before 580 was asked. */
static bool jit_reads_comments(int driver_cuda)
{
    return driver_cuda != 0 && driver_cuda < 13000;
}

static bool non_ascii_fails(const ptx_facts *f, int driver_cuda)
{
    return jit_reads_comments(driver_cuda) ? f->non_ascii_in_code : f->non_ascii;
}

/* Reads PTX entry E into MEMO, whole (ptx_scan) when WHOLE, else for its bytes outside ASCII
 * alone, unless MEMO holds that already. */
static void ptx_read(fc_ptx_memo *memo, const fc_object *obj, const fc_entry *e, const fc_options *opts, bool whole);

/* Whether PTX compiled as a whole program fails the JIT of a driver for CUDA DRIVER_CUDA: it
 * calls a function it does not define, or that JIT cannot read it. */
static bool ptx_fails_whole(fc_ptx_memo *m, const fc_object *obj, const fc_entry *e, const fc_options *opts,
                            int driver_cuda, bool *unreadable)
{
    ptx_read(m, obj, e, opts, true);
    ptx_facts f = m->readable ? m->facts : (ptx_facts){0}; /* not read: nothing said against it */
    *unreadable = f.damaged || non_ascii_fails(&f, driver_cuda);
    return f.calls_out || *unreadable;
}

bool fc_rdc_ptx_links(const fc_object *obj, const fc_entry *e, const fc_options *opts, int driver_cuda,
                      fc_ptx_memo *memo, bool *calls_out)
{
    ptx_read(memo, obj, e, opts, true);
    const ptx_facts *f = &memo->facts;
    *calls_out = f->calls_out;
    return memo->readable && !f->damaged && !non_ascii_fails(f, driver_cuda) && !f->extern_var;
}

void fc_names_free(fc_names *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->items[i]);
    free(s->items);
    memset(s, 0, sizeof *s);
}

bool fc_names_has(const fc_names *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->items[i], name) == 0)
            return true;
    return false;
}

static void names_add(fc_names *s, const char *p, size_t len)
{
    char **more = s->failed ? NULL : fc_grow(s->items, &s->cap, s->n + 1, sizeof *more, 16);
    char *copy = more ? malloc(len + 1) : NULL;
    if (!copy) { /* an -rdc link judged on names missing: "ok" turned "none" (oom22) */
        s->failed = true;
        fc_judge_out_of_memory();
        return;
    }
    s->items = more;
    memcpy(copy, p, len);
    copy[len] = '\0';
    s->items[s->n++] = copy;
}

/* each_symbol's FN for fc_rdc_functions: adds the functions a cubin defines, global or weak,
 * to the fc_names CTX. */
static bool defined_function(void *ctx, const char *name, const GElf_Sym *sym)
{
    int bind = GELF_ST_BIND(sym->st_info);
    if (sym->st_shndx != SHN_UNDEF && GELF_ST_TYPE(sym->st_info) == STT_FUNC && (bind == STB_GLOBAL || bind == STB_WEAK) &&
        name && *name)
        names_add(ctx, name, strlen(name));
    return true;
}

bool fc_rdc_functions(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_names *defined,
                      fc_names *needed)
{
    if (!obj->image || e->obfuscated || (e->kind != FC_IMAGE_CUBIN && e->kind != FC_IMAGE_PTX))
        return false;
    fc_buffer scratch = {0};
    const uint8_t *src;
    size_t n;
    fc_status read = fc_entry_image(obj, e, opts, &scratch, &src, &n);
    bool ok = read == FC_OK;
    if (read == FC_ERR_NOMEM)
        fc_judge_out_of_memory();
    if (ok && e->kind == FC_IMAGE_PTX) {
        ptx_facts f;
        ptx_names names = {0};
        ptx_scan_names(src, n, &f, &names);
        ok = !names.failed;
        for (size_t i = 0; i < names.n; i++) {
            const ptx_name *m = &names.items[i];
            if (m->defined)
                names_add(defined, (const char *)m->p, m->len);
            else if (!driver_supplied((const char *)m->p, m->len))
                names_add(needed, (const char *)m->p, m->len);
        }
        names_free(&names);
    } else if (ok) {
        fc_status why;
        Elf *elf = fc_elf_cubin_open(src, n, opts, &why);
        ok = elf && !each_symbol(elf, defined_function, defined).damaged;
        if (elf)
            elf_end(elf);
    }
    free(scratch.p);
    /* Bytes past the end of a file cut short meanwhile read as zeros (file_map.h). */
    if (ok && obj->image_reclaimable &&
        fc_file_map_range_changed((const uint8_t *)obj->image + e->payload_offset, e->stored_size))
        ok = false;
    return ok && !defined->failed && !needed->failed;
}

/* has_non_ascii over an image handed in pieces, up to its first NUL. */
typedef struct ascii_pieces {
    bool nul, non_ascii;
} ascii_pieces;

static void ascii_piece(void *ctx, const uint8_t *p, size_t n)
{
    ascii_pieces *a = ctx;
    if (a->nul || a->non_ascii)
        return; /* the rest is still inflated: a damaged tail fails as fc_entry_image fails */
    const uint8_t *nul = memchr(p, 0, n);
    if (nul)
        n = (size_t)(nul - p), a->nul = true;
    a->non_ascii = has_non_ascii(p, n);
}

#define PIECE_SIZE (256u << 10) /* what a piece of a PTX module read for its bytes takes */

static void ptx_read(fc_ptx_memo *memo, const fc_object *obj, const fc_entry *e, const fc_options *opts, bool whole)
{
    if (memo->entry == e && (memo->whole || !whole))
        return;
    *memo = (fc_ptx_memo){.entry = e, .whole = whole};
    fc_buffer scratch = {0};
    if (whole) {
        const uint8_t *src;
        size_t n;
        memo->why = fc_entry_image(obj, e, opts, &scratch, &src, &n);
        /* The driver refuses compressed text whose declared size is not what it inflates to
         * ("Uncompress failed" on the H200, too small or too large; review of 2026-12-03, F5):
         * in 74,870 compressed images of lib64, the eras corpus and the fixtures they agree. */
        if (memo->why == FC_OK && e->compression != FC_COMPRESSION_NONE && n != e->uncompressed_size)
            memo->why = FC_ERR_FORMAT;
        if ((memo->readable = memo->why == FC_OK))
            ptx_scan(src, n, &memo->facts);
        else if (memo->why == FC_ERR_NOMEM)
            fc_judge_out_of_memory(); /* not unreadable PTX: judged "none" where it is ok */
    } else {
        /* Inflated a piece at a time, never whole: most such modules hold nothing outside
         * ASCII, and those that do are read again, whole, only for a driver that needs to
         * know where (ptx_unreadable). */
        ascii_pieces a = {0};
        size_t size = e->uncompressed_size < PIECE_SIZE ? (size_t)e->uncompressed_size + 1 : PIECE_SIZE;
        uint8_t *window = malloc(size); /* none: fc_entry_pieces reads it whole */
        fc_status st = fc_entry_pieces(obj, e, opts, window, window ? size : 0, &scratch, ascii_piece, &a);
        memo->readable = st == FC_OK;
        if (st == FC_ERR_NOMEM)
            fc_judge_out_of_memory();
        free(window);
        memo->facts.non_ascii = a.non_ascii;
    }
    free(scratch.p);
}

/* PTX smaller than this (its declared size) is read, whatever the notes say: they cannot show
 * that the stored PTX is what ptxas read (a fat binary assembled by hand from nvcc's
 * intermediates, its PTX edited after ptxas ran, was judged ok on sm_90 while the H200's driver
 * returned CUDA_ERROR_INVALID_PTX; review of 2026-12-02), and reading small PTX costs little.
 * The trust is kept for what it was made for: cuSPARSELt's 70 MB module. */
#define PTX_WORTH_TRUSTING (1u << 20)

/* Whether ptxas of CUDA 13.0 or later compiled PTX entry E, as it lies in container C, into a
 * linked cubin beside it: that ptxas refuses a byte outside ASCII anywhere in its input
 * ("Unexpected non-ASCII character", in comments and strings too: ptxas 13.0.88 here), so E
 * holds none, where it would otherwise be inflated whole to be sure (cuSPARSELt's compute_75
 * module: 70 MB, 111-115 ms on the H200, beside an sm_75 cubin). The cubin's notes must say
 * that ptxas wrote it (not nvlink, whose cubin carries its inputs' notes after its own) from
 * compute_XX of E's architecture: nvcc compiles a cubin from other PTX than it stores
 * (-gencode arch=compute_80,code=sm_86 beside arch=compute_86,code=compute_86: the stored
 * compute_86 PTX is never given to ptxas, and a byte outside ASCII in it failed on the H200;
 * review of 2026-12-02). Only plain architectures: the note names compute_90 and compute_90a
 * alike, and their PTX differs. The first such cubin only: nvcc writes one per architecture,
 * and a hostile container of many would each be inflated up to the limit to find a note. */
static bool ascii_by_ptxas(const fc_object *obj, const fc_container *c, const fc_entry *e, const fc_options *opts)
{
    uint64_t size = e->compression == FC_COMPRESSION_NONE ? e->stored_size : e->uncompressed_size;
    if (e->variant != FC_VARIANT_NONE || size < PTX_WORTH_TRUSTING)
        return false;
    for (size_t i = 0; i < c->n_entries; i++) {
        const fc_entry *cu = &c->entries[i];
        if (cu->kind != FC_IMAGE_CUBIN || cu->obfuscated || cu->arch != e->arch || cu->variant != FC_VARIANT_NONE ||
            fc_entry_cubin_type(obj, cu) != ET_EXEC)
            continue;
        int release;
        unsigned from;
        return fc_cubin_ptxas(obj, cu, opts, &release, &from) && release >= 13000 && from == e->arch;
    }
    return false;
}

/* Whether the JIT of a driver for CUDA DRIVER_CUDA cannot read PTX entry E of container C for
 * its bytes outside ASCII alone: the part of ptx_fails_whole that still holds with a linked
 * cubin beside the PTX. That cubin's ptxas compiled the PTX, but an older ptxas than the
 * driver's JIT reads comments and strings a newer JIT refuses (non_ascii_fails; review 8, A3:
 * a -lineinfo build from a folder named with an 'e acute' was judged to JIT on sm_90). Only
 * the bytes are looked at, up to a NUL as the driver reads them, unless a ptxas that refuses
 * them all compiled it (ascii_by_ptxas). */
static bool ptx_unreadable(fc_ptx_memo *m, const fc_object *obj, const fc_container *c, const fc_entry *e,
                           const fc_options *opts, int driver_cuda)
{
    if (m->entry != e && ascii_by_ptxas(obj, c, e, opts)) {
        *m = (fc_ptx_memo){.entry = e, .readable = true}; /* nothing outside ASCII: all said */
        return false;
    }
    ptx_read(m, obj, e, opts, false);
    if (m->readable && m->facts.non_ascii && jit_reads_comments(driver_cuda))
        ptx_read(m, obj, e, opts, true); /* where those bytes lie (comments or code): rare */
    return m->readable && m->facts.non_ascii && non_ascii_fails(&m->facts, driver_cuda);
}

/* fc_entry_head for the judgement: a head that could not be inflated for want of memory marks
 * it out of memory, rather than read as a cubin that fails to inflate or holds no note (oom22). */
static fc_status judged_head(const fc_object *obj, const fc_entry *e, void *buf, size_t n, size_t *got)
{
    fc_status st = fc_entry_head(obj, e, buf, n, got);
    if (st == FC_ERR_NOMEM)
        fc_judge_out_of_memory();
    return st;
}

/* Whether PTX text starts with a byte outside ASCII: the driver then does not take it for PTX
 * at all (a byte order mark: CUDA_ERROR_INVALID_IMAGE, "Binary format for key='0', ident=''
 * is not recognized"; H200, driver 580.159.04, 2026-12-01). */
static bool ptx_starts_outside_ascii(const fc_object *obj, const fc_entry *e)
{
    uint8_t head[1];
    size_t got = 0;
    return judged_head(obj, e, head, sizeof head, &got) == FC_OK && got == 1 && head[0] >= 0x80;
}

/* Whether container C holds a cubin ptxas linked as a whole program (ET_EXEC, not a link
 * input). nvcc compiles each cubin from the same translation unit's PTX, and ptxas fails a
 * whole program that calls a function it does not define ("Unresolved extern function"):
 * with such a cubin beside it, the container's PTX calls out nowhere, and is not read (a
 * CUDA 11.8 library judged for sm_90 inflated and read every PTX module it holds: 1.8 s
 * became 7.8 s for /work/eras, site-packages 0.40 s became 0.66 s on the H200). */
static bool has_linked_cubin(const fc_object *obj, const fc_container *c)
{
    for (size_t i = 0; i < c->n_entries; i++)
        if (c->entries[i].kind == FC_IMAGE_CUBIN && !c->entries[i].obfuscated &&
            fc_entry_cubin_type(obj, &c->entries[i]) == ET_EXEC)
            return true;
    return false;
}

/* each_symbol's FN for cubin_defines_nothing: stops at a function or a variable. */
static bool only_bookkeeping(void *ctx, const char *name, const GElf_Sym *sym)
{
    (void)name;
    int type = GELF_ST_TYPE(sym->st_info);
    if (type == STT_NOTYPE || type == STT_SECTION || type == STT_FILE)
        return true;
    *(bool *)ctx = false;
    return false;
}

/* Whether cubin image IMG defines nothing a program could reach: no function and no variable
 * in its symbol table (only the sections' own symbols). */
static bool cubin_defines_nothing(const uint8_t *img, size_t size, const fc_options *opts)
{
    fc_status why;
    Elf *elf = fc_elf_cubin_open(img, size, opts, &why);
    if (!elf) {
        if (why == FC_ERR_NOMEM)
            fc_judge_out_of_memory();
        return false;
    }
    bool nothing = true;
    elf_errno(); /* clear */
    symbols_read r = each_symbol(elf, only_bookkeeping, &nothing);
    if (r.damaged && fc_libelf_out_of_memory())
        fc_judge_out_of_memory(); /* not damage: the table could not be held */
    elf_end(elf);
    return r.symtab && !r.damaged && nothing; /* what cannot be read may define something */
}

/* Compressed cubins and PTX are read for this only when this small: a cubin that defines
 * nothing is 1-2 KiB (CUDA 12.4's and 13.0's cuFFT register one, LZ4 and zstd, of 872 and
 * 1,896 bytes), PTX that declares nothing less, and a declared size that lies only costs this
 * much work or counts the container. */
#define SMALL_IMAGE (16u << 10)

/* Whether PTX text P (N bytes) declares nothing a program could reach: no kernel, function or
 * module-scope variable or reference; read as bytes, so that a directive in a comment or
 * string counts too (more than nothing). A translation unit without kernels built
 * -arch=compute_80 stores only .version, .target and .address_size. */
static bool ptx_declares_nothing(const uint8_t *p, size_t n)
{
    static const char *const reachable[] = {".entry", ".func", ".global", ".const", ".tex", ".surf", ".sampler"};
    for (size_t i = 0; i < sizeof reachable / sizeof *reachable; i++)
        if (memmem(p, n, reachable[i], strlen(reachable[i])))
            return false;
    return true;
}

/* Whether entry E defines nothing a program could reach: an uncompressed cubin of at most
 * 64 KiB whose symbol table says so (cubin_defines_nothing); with INFLATE also a compressed
 * cubin, or PTX, of at most SMALL_IMAGE. */
static bool entry_defines_nothing(const fc_object *obj, const fc_entry *e, const fc_options *opts, bool inflate)
{
    if ((e->kind != FC_IMAGE_CUBIN && e->kind != FC_IMAGE_PTX) || e->obfuscated ||
        e->payload_offset > obj->size || e->stored_size > obj->size - e->payload_offset)
        return false;
    if (e->kind == FC_IMAGE_CUBIN && e->compression == FC_COMPRESSION_NONE)
        return e->stored_size <= (64u << 10) &&
               cubin_defines_nothing((const uint8_t *)obj->image + e->payload_offset, (size_t)e->stored_size, opts);
    if (!inflate || e->stored_size > SMALL_IMAGE ||
        (e->compression != FC_COMPRESSION_NONE && e->uncompressed_size > SMALL_IMAGE))
        return false;
    fc_options storage, small;
    const fc_options *resolved = fc_options_resolve(opts, &storage);
    if (!resolved)
        return false;
    small = *resolved;
    if (small.max_decompressed_size > SMALL_IMAGE)
        small.max_decompressed_size = SMALL_IMAGE; /* larger: FC_ERR_LIMIT, counted */
    fc_buffer scratch = {0};
    const uint8_t *img;
    size_t len;
    fc_status st = fc_entry_image(obj, e, &small, &scratch, &img, &len);
    if (st == FC_ERR_NOMEM)
        fc_judge_out_of_memory();
    bool nothing = st == FC_OK &&
                   (e->kind == FC_IMAGE_PTX ? ptx_declares_nothing(img, len) : cubin_defines_nothing(img, len, opts));
    fc_buffer_free(&scratch);
    return nothing;
}

bool fc_images_define_nothing(const fc_object *obj, const fc_container *c, const fc_options *opts, bool inflate)
{
    if (!obj->image || !c->n_entries)
        return false;
    for (size_t i = 0; i < c->n_entries; i++)
        if (!entry_defines_nothing(obj, &c->entries[i], opts, inflate))
            return false;
    return true;
}

bool fc_container_defines_nothing(const fc_object *obj, const fc_container *c, const fc_options *opts, bool inflate)
{
    return c->role == FC_ROLE_MODULE && fc_images_define_nothing(obj, c, opts, inflate);
}

/* What the driver makes of the first bytes of entry E, a cubin: as the decoder found them, or,
 * where those were not all at hand then (the decoder reads through a window), as they are: an
 * uncompressed one's ELF header, an LZ4 one's inflated from its first stored kilobyte. A zstd
 * one is inflated for this only with INFLATE (the kernel view, which inflates every image
 * anyway, and --strict): its first block, up to 128 KiB, took cuBLASLt 13's judgement on sm_90
 * from 41 to 69 ms of CPU on dev (perf stat); one that does not inflate to an ELF header's 52
 * bytes is refused ("Uncompress failed"). With INFLATE too, an LZ4 one is inflated whole, to
 * see that it gives exactly its declared size (a zstd frame states its own: fatbin.c). */
static fc_cubin_header cubin_head(const fc_object *obj, const fc_entry *e, bool inflate, const fc_options *opts)
{
    if (e->kind != FC_IMAGE_CUBIN || e->obfuscated)
        return FC_CUBIN_HEADER_UNREAD;
    fc_cubin_header h = e->cubin_header;
    const uint8_t *stored;
    if (!obj->image || e->compression == FC_COMPRESSION_UNKNOWN || fc_entry_stored(obj, e, &stored) != FC_OK)
        return h;
    size_t n = e->stored_size < FC_CUBIN_HEAD_STORED ? (size_t)e->stored_size : FC_CUBIN_HEAD_STORED;
    /* (An uncompressed image shorter than an ELF header's 52 bytes holds no cubin.) */
    if (h == FC_CUBIN_HEADER_UNREAD && e->compression == FC_COMPRESSION_NONE)
        h = n < 52 ? FC_CUBIN_HEADER_DAMAGED : fc_cubin_header_of(stored, n < 64 ? n : 64, e->arch);
    else if (h == FC_CUBIN_HEADER_UNREAD)
        h = fc_compressed_cubin_header_of(stored, n, true, e->compression, e->arch, e->uncompressed_size);
    if (!inflate || h != FC_CUBIN_HEADER_OK || e->compression == FC_COMPRESSION_NONE)
        return h;
    if (e->compression == FC_COMPRESSION_LZ4) {
        /* A raw block's size is the entry's word only: the whole block is inflated to see that
         * it gives exactly that (the driver's 209 for 64 bytes more or fewer). */
        bool exact;
        fc_options defaults;
        const fc_options *o = fc_options_resolve(opts, &defaults);
        fc_status st = o ? fc_lz4_inflates_to(stored, (size_t)e->stored_size, e->uncompressed_size,
                                              o->max_decompressed_size, &exact)
                         : FC_ERR_INVALID;
        if (st != FC_OK) /* past the limit, or no memory: not judged here */
            return h;
        /* Its pages leave the resident set again (cuBLASLt 11.8 on sm_80: 97 MiB peak, not 4) */
        if (!fc_entry_stored_done(obj, e))
            return FC_CUBIN_HEADER_UNREAD; /* the file is shorter now: the scan says so */
        return exact ? h : FC_CUBIN_HEADER_NOT_COMPRESSED;
    }
    uint8_t head[64];
    size_t got = 0;
    fc_status st = judged_head(obj, e, head, sizeof head, &got);
    if (st == FC_ERR_IO || st == FC_ERR_NOMEM) /* the file is shorter now (the scan says so), or
                                                 * the judgement is out of memory */
        return FC_CUBIN_HEADER_UNREAD;
    if (st != FC_OK || got < 52)
        return FC_CUBIN_HEADER_NOT_COMPRESSED;
    return fc_cubin_header_of(head, got, e->arch);
}

int fc_cubin_written_by(const fc_object *obj, const fc_entry *e)
{
    int built = fc_cubin_toolkit_cuda(e);
    if (built || e->kind != FC_IMAGE_CUBIN || e->obfuscated)
        return built;
    uint32_t v = e->elf_abi_version == 7 ? e->elf_version : 0;
    if (!e->elf_abi_version && obj->image) { /* not read when decoded: compressed, or not at hand */
        uint8_t h[64];
        size_t got = 0;
        if (judged_head(obj, e, h, sizeof h, &got) == FC_OK && got >= 24 && h[EI_ABIVERSION] == 7)
            v = fc_rd32(h + 20);
    }
    return v >= 90 && v < 1000 ? (int)(v / 10 * 1000 + v % 10 * 10) : 0; /* CUDA 9.0 to 99.9 */
}

/* Rule 13 for cubins of ELF ABI 7 (fc_cubin_written_by): where the target's driver is older
 * than CUDA 12.0, a cubin of a later CUDA major than the driver's does not run: Triton's
 * cubins from its CUDA 12.3 ptxas failed with "device kernel image is invalid" on a 470 driver
 * (CUDA 11.4) and ran once built by ptxas 11.8 (pytorch/pytorch issue 119054,
 * triton-lang/triton issue 3001; no such driver tried here). The head is read (an LZ4 one
 * inflated from its first stored bytes) for such drivers only, once for a container's targets
 * (MEMO); zstd images fail on them before this. */
static bool cubin_too_new(const fc_object *obj, const fc_entry *e, int driver_cuda, fc_ptx_memo *memo)
{
    /* On newer drivers only where the header was read already (a cubin file, one kept as data,
     * an uncompressed entry): CUDA 13.0's cuDNN holds ABI 7 cubins whose e_version is 130,
     * which a 12.x driver was judged to run bare (review of 2026-12-06, rv12 F5); a compressed
     * one's entry says 1.8 (fc_cubin_toolkit_cuda), and reading every head would cost the
     * default run on a large library. */
    if (e->kind != FC_IMAGE_CUBIN || e->obfuscated || !driver_cuda || fc_cubin_toolkit_cuda(e) ||
        (driver_cuda >= 12000 && e->elf_abi_version != 7))
        return false;
    if (memo->dated != e) {
        memo->dated = e;
        memo->dated_release = fc_cubin_written_by(obj, e);
    }
    return memo->dated_release / 1000 > driver_cuda / 1000;
}

fc_load fc_refine_load(const fc_object *obj, const fc_container *c, fc_load l, const fc_options *opts)
{
    return fc_refine_load_for(obj, c, l, 0, false, opts, NULL);
}

fc_load fc_refine_load_for(const fc_object *obj, const fc_container *c, fc_load l, int driver_cuda, bool inflate,
                           const fc_options *opts, fc_ptx_memo *memo)
{
    fc_ptx_memo none = {0};
    if (!memo)
        memo = &none;
    if (c->role != FC_ROLE_MODULE || l.entry < 0 || (size_t)l.entry >= c->n_entries)
        return l;
    const fc_entry *e = &c->entries[l.entry];
    /* Registered code was linked when the program was built; PTX compiled to be linked in it
     * (--compile-only) is relocatable code the runtime loads as a module anyway, and its
     * functions fail at first use (tests/oracle: printf.rdc.compute_80.fatbin, lazy and eager). */
    bool registered = fc_origin_registered(c->origin);
    if (registered && l.result == FC_LOAD_SUCCESS && fc_entry_compiled_relocatable(e)) {
        l.result = FC_LOAD_RELOCATABLE;
        return l;
    }
    if (l.result == FC_LOAD_SUCCESS) {
        switch (cubin_head(obj, e, inflate, opts)) {
        case FC_CUBIN_HEADER_DAMAGED: l.result = FC_LOAD_INVALID_IMAGE; return l;
        case FC_CUBIN_HEADER_OTHER_SM: l.result = FC_LOAD_INVALID_SOURCE; return l;
        case FC_CUBIN_HEADER_NOT_COMPRESSED: l.result = FC_LOAD_UNCOMPRESS_FAILED; return l;
        case FC_CUBIN_HEADER_UNREAD:
        case FC_CUBIN_HEADER_OK: break;
        }
    }
    if (!obj->image)
        return l;
    if (e->obfuscated)
        return l;
    if (l.result == FC_LOAD_SUCCESS && cubin_too_new(obj, e, driver_cuda, memo)) {
        l.result = FC_LOAD_TOOLKIT_TOO_NEW;
        return l;
    }
    if (e->kind == FC_IMAGE_PTX && l.result == FC_LOAD_SUCCESS && !fc_entry_compiled_relocatable(e)) {
        /* Read where PTX is handed to the driver on its own (files, text in programs, bare fat
         * binaries) and where the runtime registers it (the driver JIT-compiles it the same
         * way: review 2, R10), only when it is what the driver compiles for the target (no
         * cubin fits); not in the thousands of containers a library keeps as data (cuFFT:
         * 11,000 PTX modules, 3 s to inflate and read), which its own build compiled. */
        bool linked = c->origin != FC_ORIGIN_EMBEDDED && registered && has_linked_cubin(obj, c);
        if (c->origin != FC_ORIGIN_EMBEDDED && !linked &&
            ptx_fails_whole(memo, obj, e, opts, driver_cuda, &l.unreadable))
            l.result = l.unreadable && ptx_starts_outside_ascii(obj, e) ? FC_LOAD_INVALID_IMAGE : FC_LOAD_INVALID_PTX;
        else if (linked && (l.unreadable = ptx_unreadable(memo, obj, c, e, opts, driver_cuda)))
            l.result = ptx_starts_outside_ascii(obj, e) ? FC_LOAD_INVALID_IMAGE : FC_LOAD_INVALID_PTX;
    } else if (registered) {
        /* A registered cubin was linked when the program was; relocatable ones are not here. */
    } else if (e->kind == FC_IMAGE_CUBIN && l.result == FC_LOAD_SUCCESS && c->origin != FC_ORIGIN_CUBIN_FILE &&
               c->origin != FC_ORIGIN_EMBEDDED_CUBIN && fc_entry_cubin_type(obj, e) == ET_REL) {
        l.result = FC_LOAD_LINK_INPUT;
    }
    return l;
}
