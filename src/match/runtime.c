/* runtime.c - the CUDA runtime and libraries a file needs, and so the driver it needs.
 *
 * A program starts its CUDA runtime before any kernel is looked for; a runtime newer than the
 * driver allows fails every call with cudaErrorInsufficientDriver ("CUDA driver version is
 * insufficient for CUDA runtime version"). From CUDA 11 on, a runtime of major N starts on any
 * driver for N.0 or newer (minor version compatibility, CUDA Compatibility guide); before it,
 * only on a driver for its own version or newer. ../shared/docs/compat-rules.md, section 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decode.h"
#include "fatcheck.h"

/* CUDA libraries by soname prefix: the major in the soname and the CUDA release it came with.
 * Where the library's major is CUDA's own (cudart from 11 on, cuBLAS, NPP, NVRTC, nvJitLink,
 * CUPTI) the table says so; the others are listed major by major (CUDA Toolkit release notes,
 * checked against the sonames of CUDA 11.8, 12.4 and 13.0 here). */
static const struct {
    const char *prefix;
    int major;  /* -1: the soname's major is the CUDA major */
    int cuda;   /* the oldest CUDA release that ships it */
} libraries[] = {
    {"libcudart.so.", -1, 0},   {"libcublas.so.", -1, 0}, {"libcublasLt.so.", -1, 0},
    {"libnvrtc.so.", -1, 0},    {"libnvJitLink.so.", -1, 0}, {"libcupti.so.", -1, 0},
    {"libnppc.so.", -1, 0},     {"libnppial.so.", -1, 0},  {"libnppicc.so.", -1, 0},
    {"libnppidei.so.", -1, 0},  {"libnppif.so.", -1, 0},   {"libnppig.so.", -1, 0},
    {"libnppim.so.", -1, 0},    {"libnppist.so.", -1, 0},  {"libnppisu.so.", -1, 0},
    {"libnppitc.so.", -1, 0},   {"libnpps.so.", -1, 0},    {"libnvblas.so.", -1, 0},
    {"libcufft.so.", 10, 10000}, {"libcufft.so.", 11, 12000}, {"libcufft.so.", 12, 13000},
    {"libcufftw.so.", 10, 10000}, {"libcufftw.so.", 11, 12000}, {"libcufftw.so.", 12, 13000},
    {"libcusparse.so.", 10, 10000}, {"libcusparse.so.", 11, 11000}, {"libcusparse.so.", 12, 12000},
    {"libcusolver.so.", 10, 10000}, {"libcusolver.so.", 11, 11000}, {"libcusolver.so.", 12, 13000},
    {"libcurand.so.", 10, 10000},
    /* (rv45 F5: a file needing only these was "no CUDA code" on a driver they cannot start on;
     * cuSOLVERMg's major is cuSOLVER's, nvJPEG's and nvFatbin's CUDA's: CUDA 13.0's
     * libcusolverMg.so.12 here) */
    {"libnvjpeg.so.", -1, 0},   {"libnvfatbin.so.", -1, 0},
    {"libcusolverMg.so.", 10, 10000}, {"libcusolverMg.so.", 11, 11000}, {"libcusolverMg.so.", 12, 13000},
};

/* The ELF soname of a CUDA library's Windows DLL (NAME, without ".dll"), into OUT: cudart64_12
 * -> libcudart.so.12, cudart64_110 -> libcudart.so.11.0, cudart64_102 -> libcudart.so.10.2,
 * cublasLt64_13 -> libcublasLt.so.13, cufft64_11 -> libcufft.so.11, nvrtc64_120_0 ->
 * libnvrtc.so.12.0, nvJitLink_130_0 -> libnvJitLink.so.13.0. A DLL's number is the
 * library's major where the soname's is (cuFFT 11 is cufft64_11.dll) and, for the runtime
 * and NVRTC, the CUDA release: three digits are major and minor (110, 102, 120); two are a
 * major from 12 on, and major and minor before it (92 is 9.2). */
static bool soname_of_dll(const char *name, size_t len, char *out, size_t size)
{
    static const char *const bases[] = {"cudart", "cublasLt", "cublas", "nvrtc", "nvJitLink", "cupti", "nppc",
                                        "nppial", "nppicc", "nppidei", "nppif", "nppig", "nppim", "nppist",
                                        "nppisu", "nppitc", "npps", "nvblas", "cufftw", "cufft", "cusparse",
                                        "cusolverMg", "cusolver", "curand", "nvjpeg", "nvfatbin"};
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
        size_t n = strlen(bases[i]);
        if (len <= n || strncasecmp(name, bases[i], n) != 0)
            continue;
        const char *p = name + n;
        if (strncmp(p, "64_", 3) == 0 || strncmp(p, "32_", 3) == 0)
            p += 3;
        else if (*p == '_')
            p++;
        else
            continue;
        unsigned long v = 0;
        size_t digits = 0;
        while (p < name + len && *p >= '0' && *p <= '9' && digits < 6)
            v = v * 10 + (unsigned long)(*p++ - '0'), digits++;
        if (!digits || (p < name + len && *p != '_'))
            continue;
        bool release = strcmp(bases[i], "cudart") == 0 || strcmp(bases[i], "nvrtc") == 0 ||
                       strcmp(bases[i], "nvJitLink") == 0 || strcmp(bases[i], "nvfatbin") == 0;
        if (release && (digits == 3 || (digits == 2 && v >= 30)))
            snprintf(out, size, "lib%s.so.%lu.%lu", bases[i], v / 10, v % 10);
        else
            snprintf(out, size, "lib%s.so.%lu", bases[i], v);
        return true;
    }
    return false;
}

int fc_cuda_library_version(const char *soname)
{
    size_t len = strlen(soname);
    if (len > 4 && strcasecmp(soname + len - 4, ".dll") == 0) {
        char elf[64];
        return soname_of_dll(soname, len - 4, elf, sizeof elf) ? fc_cuda_library_version(elf) : 0;
    }
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++) {
        size_t n = strlen(libraries[i].prefix);
        if (strncmp(soname, libraries[i].prefix, n) != 0)
            continue;
        char *end;
        unsigned long major = strtoul(soname + n, &end, 10);
        if (end == soname + n || (*end && *end != '.'))
            continue;
        if (libraries[i].major >= 0) {
            if ((unsigned long)libraries[i].major == major)
                return libraries[i].cuda;
            continue;
        }
        if (major < 9 || major > 99)
            return 0;
        /* Before CUDA 11 the runtime's soname carried the minor too (libcudart.so.10.2), and
         * only a driver for that very release started it. */
        unsigned long minor = *end == '.' ? strtoul(end + 1, NULL, 10) : 0;
        return (int)(major * 1000 + (major < 11 && minor < 10 ? minor * 10 : 0));
    }
    return 0;
}

static int toolkit_of(const fc_object *obj, const fc_options *opts, char *evidence, size_t size)
{
    unsigned best_isa = 0;
    for (size_t c = 0; c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        if (!fc_origin_registered(ct->origin))
            continue;
        for (size_t e = 0; e < ct->n_entries; e++) {
            const fc_entry *en = &ct->entries[e];
            unsigned isa = en->version_major * 10u + en->version_minor;
            if (en->kind == FC_IMAGE_PTX && isa > best_isa && fc_ptx_isa_cuda_version(en->version_major, en->version_minor))
                best_isa = isa;
        }
    }
    int from_ptx = best_isa ? fc_ptx_isa_cuda_version(best_isa / 10, best_isa % 10) : 0;
    fc_buffer scratch = {0};
    int cuda = 0;
    size_t read = 0; /* a file whose first cubins carry no note carries none (CUDA 11's) */
    size_t tried = 0; /* and cubins that cannot be read are tried only so often: each may be a
                         bomb inflated up to the limit (review 6: 200 took 28 s) */
    for (size_t c = 0; c < obj->n_containers && !cuda && read < 4 && tried < 8; c++) {
        const fc_container *ct = &obj->containers[c];
        for (size_t e = 0; fc_origin_registered(ct->origin) && e < ct->n_entries && !cuda && read < 4 && tried < 8;
             e++) {
            bool readable = false;
            if (ct->entries[e].kind != FC_IMAGE_CUBIN || ct->entries[e].obfuscated)
                continue;
            cuda = fc_cubin_release(obj, &ct->entries[e], opts, &scratch, &readable);
            read += readable;
            tried++;
        }
    }
    fc_buffer_free(&scratch);
    if (from_ptx >= cuda) {
        if (from_ptx)
            snprintf(evidence, size, "PTX ISA %u.%u", best_isa / 10, best_isa % 10);
        return from_ptx;
    }
    snprintf(evidence, size, "its cubins' ptxas, CUDA %d.%d", cuda / 1000, cuda % 1000 / 10);
    return cuda;
}

/* What a runtime of CUDA version V needs of the driver: from 11 on, its major's first release. */
static int runtime_floor(int v)
{
    return v >= 11000 ? v / 1000 * 1000 : v;
}

fc_status fc_object_runtime(fc_runtime_need *out, const fc_object *obj, const fc_options *opts)
{
    if (!obj || !out)
        return FC_ERR_INVALID;
    memset(out, 0, sizeof *out);
    fc_options defaults;
    if (!(opts = fc_options_resolve(opts, &defaults)))
        return FC_ERR_INVALID;
    const char *cudart = NULL;
    for (size_t i = 0; i < obj->n_needed; i++) {
        int v = fc_cuda_library_version(obj->needed[i]);
        if (fc_is_cuda_runtime_library(obj->needed[i]))
            cudart = obj->needed[i];
        if (runtime_floor(v) > out->cuda) {
            out->cuda = runtime_floor(v);
            snprintf(out->decided_by, sizeof out->decided_by, "%s", obj->needed[i]);
        }
    }
    /* A CUDA library itself (cuFFT 11 of CUDA 12, whose static runtime dates itself nowhere
     * else) needs its own release's driver. */
    if (obj->soname && (out->library_cuda = fc_cuda_library_version(obj->soname)) &&
        runtime_floor(out->library_cuda) > out->cuda) {
        out->cuda = runtime_floor(out->library_cuda);
        snprintf(out->decided_by, sizeof out->decided_by, "%s itself", obj->soname);
    }
    /* Between equals, the runtime is what decides. */
    if (cudart && runtime_floor(fc_cuda_library_version(cudart)) == out->cuda)
        snprintf(out->decided_by, sizeof out->decided_by, "%s", cudart);
    bool registers = fc_any_registered(obj->containers, obj->n_containers);
    if (cudart) {
        out->kind = FC_RUNTIME_SHARED;
    } else if (obj->imports_registration) {
        out->kind = FC_RUNTIME_PROCESS;
    } else if (registers && obj->linked_program && obj->runtime_unknown && !obj->runtime_calls_cuda) {
        /* Not where the file holds a static runtime's table of driver functions: one is linked
         * in, whatever else cannot be read. */
        out->kind = FC_RUNTIME_UNKNOWN;
    } else if ((registers || obj->static_runtime) && obj->linked_program) {
        out->kind = FC_RUNTIME_STATIC;
        out->built_by = toolkit_of(obj, opts, out->built_by_evidence, sizeof out->built_by_evidence);
        /* The runtime's own witness: the driver functions it names (obj->runtime_calls_cuda),
         * of its release's major or older. Without it the device code gives a lower bound. */
        int calls = obj->runtime_calls_cuda;
        if (calls && runtime_floor(calls) >= runtime_floor(out->built_by)) {
            out->built_by = calls;
            /* (a Windows runtime by its table of them, or CUDA 13's hybrid one by the DLL it
             * loads: pe_runtime.c) */
            snprintf(out->built_by_evidence, sizeof out->built_by_evidence,
                     fc_object_is_windows(obj) ? "its runtime's strings date it to CUDA %d"
                                               : "its runtime resolves CUDA %d.0's driver functions",
                     calls / 1000);
        }
        out->floor_only = out->built_by && !calls && !out->library_cuda; /* a CUDA library: its soname */
        if (out->built_by && runtime_floor(out->built_by) >= out->cuda) { /* between equals, the runtime */
            out->cuda = runtime_floor(out->built_by);
            snprintf(out->decided_by, sizeof out->decided_by, "its static CUDA %d runtime", out->built_by / 1000);
        }
    }
    return FC_OK;
}

bool fc_is_cuda_runtime_library(const char *name)
{
    char elf[64];
    size_t len = strlen(name);
    if (len > 4 && strcasecmp(name + len - 4, ".dll") == 0 && soname_of_dll(name, len - 4, elf, sizeof elf))
        name = elf;
    return strncmp(name, "libcudart.so.", 13) == 0 && fc_cuda_library_version(name);
}

bool fc_runtime_starts(const fc_runtime_need *n, int driver_cuda)
{
    return !n->cuda || !driver_cuda || driver_cuda >= n->cuda;
}

const char *fc_runtime_kind_name(fc_runtime_kind k)
{
    switch (k) {
    case FC_RUNTIME_SHARED: return "shared";
    case FC_RUNTIME_STATIC: return "static";
    case FC_RUNTIME_PROCESS: return "process";
    case FC_RUNTIME_UNKNOWN: return "unknown";
    case FC_RUNTIME_NONE: break;
    }
    return "none";
}

bool fc_object_is_windows(const fc_object *obj)
{
    return obj && (obj->format == FC_FORMAT_PE || obj->format == FC_FORMAT_COFF);
}
