/* advice.c - what advice to rebuild a file rests on: the compute capabilities to build, their
 * spellings for PyTorch, CMake and nvcc, which CUDA release still builds an old architecture,
 * what built the file, and whether it is a library nobody but its vendor rebuilds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "verdict_internal.h"

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static size_t add_cc(unsigned *out, size_t n, size_t max, unsigned cc)
{
    for (size_t i = 0; i < n; i++)
        if (out[i] == cc)
            return n;
    if (n < max)
        out[n++] = cc;
    return n;
}

size_t fc_covering_ccs(unsigned *out, size_t max, const fc_object *obj, const fc_target *targets, size_t n_targets)
{
    size_t n = 0;
    for (size_t c = 0; obj && c < obj->n_containers; c++) {
        const fc_container *ct = &obj->containers[c];
        if (fc_container_kept_as_data(ct))
            continue;
        for (size_t e = 0; e < ct->n_entries; e++)
            if (ct->entries[e].kind == FC_IMAGE_CUBIN && ct->entries[e].variant == FC_VARIANT_NONE)
                n = add_cc(out, n, max, ct->entries[e].arch);
    }
    for (size_t t = 0; t < n_targets; t++)
        n = add_cc(out, n, max, targets[t].cc);
    qsort(out, n, sizeof *out, cmp_unsigned);
    return n;
}

/* TORCH_CUDA_ARCH_LIST: "8.0;9.0+PTX". */
static void format_torch(const unsigned *ccs, size_t n, bool ptx, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%u.%u%s", i ? ";" : "", ccs[i] / 10, ccs[i] % 10,
                              ptx && i + 1 == n ? "+PTX" : "");
}

/* CMake CUDA_ARCHITECTURES: "80-real;90". */
static void format_cmake(const unsigned *ccs, size_t n, bool ptx, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%u%s", i ? ";" : "", ccs[i],
                              ptx && i + 1 == n ? "" : "-real");
}

/* nvcc: "-gencode arch=compute_80,code=sm_80 ...". */
static void format_gencode(const unsigned *ccs, size_t n, bool ptx, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s-gencode arch=compute_%u,code=sm_%u", i ? " " : "", ccs[i],
                              ccs[i]);
    if (ptx && n && k < size)
        snprintf(buf + k, size - k, " -gencode arch=compute_%u,code=compute_%u", ccs[n - 1], ccs[n - 1]);
}

void fc_build_flags_format(fc_build_flags *out, const unsigned *ccs, size_t n, bool ptx)
{
    format_torch(ccs, n, ptx, out->torch, sizeof out->torch);
    format_cmake(ccs, n, ptx, out->cmake, sizeof out->cmake);
    format_gencode(ccs, n, ptx, out->nvcc, sizeof out->nvcc);
}

int fc_last_cuda_building(unsigned cc)
{
    return cc < 35 ? 10 : cc < 50 ? 11 : cc < 75 ? 12 : 0;
}

unsigned fc_oldest_cc_built_by(int major)
{
    return major >= 13 ? 75 : major == 12 ? 50 : major == 11 ? 35 : 30;
}

int fc_judgement_built_by(const fc_judgement *j)
{
    if (!j)
        return 0;
    /* A CUDA library dates itself by its soname, no later than the toolkit that built it says:
     * CUDA 13.0 ships cuSPARSE as libcusparse.so.12, with a static CUDA 13 runtime. */
    int library = j->runtime.library_cuda / 1000, built = j->runtime.built_by / 1000;
    if (library || built)
        return library > built ? library : built;
    if (j->runtime.kind == FC_RUNTIME_SHARED && j->runtime.cuda >= 11000)
        return j->runtime.cuda / 1000;
    return j->ptx.cuda / 1000;
}

/* The file name of OBJ: its member's, else its path's. */
static const char *base_name(const fc_object *obj)
{
    const char *name = obj->member ? obj->member : obj->path;
    const char *base = strrchr(name, '/');
    return base ? base + 1 : name;
}

const char *fc_nvidia_library(char *buf, size_t size, const fc_object *obj)
{
    static const char *const names[] = {
        "libcublasLt", "libcublas", "libcufftw", "libcufft", "libcusparseLt", "libcusparse", "libcusolverMg",
        "libcusolver", "libcurand", "libnpp", "libnvjpeg", "libcudnn", "libnccl", "libnvrtc", "libnvJitLink",
        "libcutensor", "libnvshmem", "libcudadevrt", "libcudart", "libnvblas", "libcufile",
    };
    const char *base = base_name(obj);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(base, names[i], n) == 0 && (base[n] == '.' || base[n] == '_' || (base[n] >= 'a' && base[n] <= 'z'))) {
            snprintf(buf, size, "%s", base);
            char *dot = strstr(buf, ".so");
            if (dot)
                *dot = '\0';
            return buf;
        }
    }
    return NULL;
}

bool fc_torch_library(const fc_object *obj)
{
    const char *base = base_name(obj);
    return strncmp(base, "libtorch_cuda", 13) == 0 || strncmp(base, "libc10_cuda", 11) == 0;
}
