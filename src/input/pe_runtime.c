/* pe_runtime.c - a CUDA runtime linked statically into a Windows image (cudart_static.lib).
 *
 * Such a runtime imports nothing of CUDA's: it loads the driver (nvcuda.dll) by name with
 * LoadLibrary and asks it for its functions. A survey of 273 Windows images (review of
 * 2026-12-08: node-llama-cpp, ONNX Runtime, ffmpeg from npm, 33 repositories' nvcc-built
 * programs, CUDA 6.0 to 13.2) found two layouts of its strings in read-only data, each by
 * "nvcuda.dll", in every one of 176 images with a static runtime and in no other:
 *   - CUDA 13 release builds (the hybrid runtime): "nvcuda.dll", then within 96 bytes
 *     "cuGetExportTable" and "nvcudart_hybrid64.dll", the DLL the driver ships for it;
 *   - CUDA 6.0 to 12.x, and 13.0 debug builds: a table of 100 or more driver function names,
 *     "cuGetExportTable" among them, that starts or ends within 256 bytes of "nvcuda.dll"
 *     (ffmpeg names 36 beside it, to load NVENC, and no cuGetExportTable); from CUDA 11 on
 *     the table starts with cuInit (cuGetProcAddress before it from 11.3, cuGetProcAddress_v2
 *     from 12), where a loader of the driver API lists cuda.h's functions in its order.
 * The table's names date the runtime as on Linux (runtime_names.h); a hybrid one is CUDA 13.
 * A DLL that exports driver functions itself (a shim standing in for nvcuda.dll) lists them
 * in its export directory after its name, and is not taken for a runtime.
 */
#include <stdbool.h>
#include <string.h>

#include "image.h"
#include "input.h"
#include "pe.h"
#include "runtime_names.h"

#define NEAR 256u           /* the table starts or ends this near "nvcuda.dll" */
#define NAME_GAP 512u       /* the most bytes between two names of one table */
#define TABLE_MIN 100u      /* names a runtime's table has at least (CUDA 6.0: 194) */
#define WINDOW (64u << 10)  /* bytes read each side of "nvcuda.dll" (CUDA 13.0's table: 516 names) */
#define HYBRID_SPAN 128u
#define LOOKS 4096u         /* places of "nvcuda.dll" looked at, a file (a runtime has one) */
#define TABLE_LOOKS 64u     /* of them, those a table is looked for around (each reads 128 KiB:
                               8 MiB in all; strings that only look like names use them up) */
#define LONGEST_NAME 128u   /* the longest driver function name looked for before a place */

static const char driver_dll[] = "nvcuda.dll";

/* The length of the driver function name at P (at most N bytes): "cu" and identifier
 * characters up to a NUL; 0 when P holds none. */
static size_t name_at(const uint8_t *p, size_t n)
{
    if (n < 3 || p[0] != 'c' || p[1] != 'u')
        return 0;
    size_t i = 2;
    while (i < n && (p[i] == '_' || (p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'z') ||
                     (p[i] >= 'A' && p[i] <= 'Z')))
        i++;
    return i < n && p[i] == '\0' && i > 2 ? i : 0;
}

/* A run of driver function names in W[0, N): names one after another, each at most NAME_GAP
 * bytes past the last one's end. */
typedef struct run {
    size_t start, end, names;
    bool export_table; /* cuGetExportTable among them */
    bool proc_first;   /* its first name is cuGetProcAddress(_v2), as in every runtime's table
                          of CUDA 11.3 and later, or cuInit (11.0 to 11.2); a loader of the
                          driver API (cuew, and ggml's in CUDA 13.1) lists the functions in
                          cuda.h's order, from cuGetErrorString */
} run;

/* Whether R starts or ends within NEAR bytes of "nvcuda.dll" at AT (or holds it). */
static bool near(const run *r, size_t at)
{
    return r->start <= at + sizeof driver_dll + NEAR && r->end + NEAR >= at;
}

/* The longest run of W[0, N) near "nvcuda.dll" at W[AT], if any. */
static bool run_near(const uint8_t *w, size_t n, size_t at, run *out)
{
    run cur = {0};
    bool in_run = false, found = false;
    for (size_t i = 1; i + 2 < n; i++) {
        if (w[i - 1] != '\0' || w[i] != 'c')
            continue;
        size_t len = name_at(w + i, n - i);
        if (!len)
            continue;
        if (in_run && i - cur.end > NAME_GAP) {
            if (near(&cur, at) && (!found || cur.names > out->names))
                *out = cur, found = true;
            in_run = false;
        }
        if (!in_run)
            cur = (run){.start = i, .proc_first = (len == 16 && memcmp(w + i, "cuGetProcAddress", 16) == 0) ||
                                                  (len == 19 && memcmp(w + i, "cuGetProcAddress_v2", 19) == 0) ||
                                                  (len == 6 && memcmp(w + i, "cuInit", 6) == 0)};
        in_run = true;
        cur.names++;
        cur.end = i + len;
        cur.export_table |= len == 16 && memcmp(w + i, "cuGetExportTable", 16) == 0;
        i += len;
    }
    if (in_run && near(&cur, at) && (!found || cur.names > out->names))
        *out = cur, found = true;
    return found;
}

/* Whether [OFF, OFF + LEN) of the file lies in the export directory of PE. */
static bool in_exports(const fc_pe *pe, uint64_t off, uint64_t len)
{
    uint64_t start, avail;
    if (!pe->export_size || !fc_pe_rva_offset(pe, pe->export_rva, &start, &avail))
        return false;
    uint64_t size = pe->export_size < avail ? pe->export_size : avail;
    return off + len > start && off < start + size;
}

/* What the strings around "nvcuda.dll" at AREA[at] say: the CUDA release of the runtime
 * whose they are (0 when they are a runtime's of no release its names date), or -1. A table
 * is looked for around *TABLE_LOOKS more of them at most (each reads 128 KiB: a DLL of 1 MiB
 * of "nvcuda.dll" took 129 s, review of 2026-12-08, rv44 F2). */
static int runtime_at(const uint8_t *area, uint64_t len, uint64_t at, unsigned *table_looks)
{
    const uint8_t *after = area + at + sizeof driver_dll;
    size_t span = len - (at + sizeof driver_dll) < HYBRID_SPAN ? (size_t)(len - (at + sizeof driver_dll)) : HYBRID_SPAN;
    /* (the strings are NUL-padded: the byte before each name is a NUL) */
    const uint8_t *names = after - 1;
    if (fc_holds_whole_string(names, span + 1, "cuGetExportTable") &&
        (fc_holds_whole_string(names, span + 1, "nvcudart_hybrid64.dll") ||
         fc_holds_whole_string(names, span + 1, "nvcudart_hybrida64.dll")))
        return 13000;
    /* A look is spent only where a driver function's name (as name_at reads one) starts where
     * a table near() takes could hold it: messages ("could not load nvcuda.dll") ahead of a
     * table used the looks up (rv45 F3), and a gate narrower than near() missed a table whose
     * long last name started before it (rv46 F1). */
    uint64_t gate_lo = at > NEAR + LONGEST_NAME ? at - NEAR - LONGEST_NAME : 0;
    uint64_t gate_hi = len - at > sizeof driver_dll + NEAR + 3 ? at + sizeof driver_dll + NEAR + 3 : len;
    bool named = false;
    for (const uint8_t *q = area + gate_lo, *end = area + gate_hi;
         !named && (q = memmem(q, (size_t)(end - q), "\0cu", 3)); q++)
        named = name_at(q + 1, (size_t)(area + len - (q + 1))) != 0;
    if (!named || !*table_looks)
        return -1;
    (*table_looks)--;
    uint64_t lo = at > WINDOW ? at - WINDOW : 0, hi = len - at > WINDOW ? at + WINDOW : len;
    run r = {0};
    if (!run_near(area + lo, (size_t)(hi - lo), (size_t)(at - lo), &r) || r.names < TABLE_MIN || !r.export_table ||
        !r.proc_first)
        return -1;
    return fc_runtime_names_newest(area + lo + r.start - 1, r.end - r.start + 2);
}

int fc_pe_static_runtime(const fc_image *img, uint64_t base, const uint8_t *data, uint64_t size, const fc_pe *pe)
{
    int best = -1;
    unsigned table_looks = TABLE_LOOKS, looks = LOOKS;
    for (size_t i = 0; i < pe->n_sections; i++) {
        const fc_pe_section *s = &pe->sections[i];
        /* (not the sections of fat binaries and their records: 129 MB in ggml-cuda.dll) */
        if (!s->size || strncmp(s->name, ".nv", 3) == 0 || !(s->characteristics & FC_PE_SCN_CNT_INITIALIZED_DATA) ||
            (s->characteristics & (FC_PE_SCN_MEM_WRITE | FC_PE_SCN_MEM_EXECUTE)) || s->offset > size ||
            s->size > size - s->offset)
            continue;
        const uint8_t *area = data + s->offset;
        /* (with its NUL; what precedes it varies: a GUID in CUDA 13's hybrid runtime) */
        for (const uint8_t *at = area, *q; (q = memmem(at, (size_t)(area + s->size - at), driver_dll, sizeof driver_dll));
             at = q + 1) {
            if (!looks) /* (a post-decrement wrapped past 0, and the next section had no cap: rv46 F4) */
                break;
            looks--;
            uint64_t where = (uint64_t)(q - area);
            if (in_exports(pe, s->offset + where, sizeof driver_dll))
                continue;
            int cuda = runtime_at(area, s->size, where, &table_looks);
            if (cuda > best)
                best = cuda;
        }
        fc_image_release(img, base + s->offset, s->size);
    }
    return best;
}
