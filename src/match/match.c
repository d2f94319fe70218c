/* match.c - which image the CUDA driver loads from a container on a given GPU.
 *
 * The rules (docs/matching.md, ../shared/docs/compat-rules.md, checked with --probe):
 *  - a cubin sm_XY runs on CC X.z, z >= Y, same major, never across Jetson and desktop parts;
 *    sm_XYa only on exactly X.Y; sm_XYf within its family (same major, z >= Y);
 *  - PTX compute_XY is compiled for any CC >= X.Y; compute_XYa only for X.Y; compute_XYf
 *    within its family; and only when its ISA is not newer than the driver's CUDA version;
 *  - the driver prefers a cubin (exact CC first, then the newest compatible one), then the
 *    newest PTX it may compile;
 *  - CUDA_FORCE_PTX_JIT ignores cubins; CUDA_DISABLE_PTX_JIT never compiles PTX.
 */
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "fatcheck.h"
#include "verdict_internal.h"

static unsigned major_of(unsigned cc)
{
    return cc / 10;
}

bool fc_cubin_runs_on(unsigned arch, fc_variant v, unsigned cc, bool cc_is_tegra)
{
    if (v == FC_VARIANT_ARCH_SPECIFIC)
        return arch == cc;
    /* Families begin with sm_100: the H200's driver found no image (209) in an sm_90 cubin
     * flagged `f` (review of 2026-12-03, v33), and loaded it flagged `a` and `f` both. */
    if (v == FC_VARIANT_FAMILY && arch < 100)
        return false;
    if (major_of(arch) != major_of(cc) || arch > cc)
        return false;
    return fc_cc_is_tegra(arch) == cc_is_tegra;
}

bool fc_ptx_jits_for(unsigned arch, fc_variant v, unsigned cc)
{
    if (v == FC_VARIANT_ARCH_SPECIFIC)
        return arch == cc;
    if (v == FC_VARIANT_FAMILY)
        return major_of(arch) == major_of(cc) && arch <= cc;
    return arch <= cc;
}

void fc_jit_policy_from_env(fc_jit_policy *p)
{
    const char *f = getenv("CUDA_FORCE_PTX_JIT"), *d = getenv("CUDA_DISABLE_PTX_JIT");
    p->force_ptx_jit = f && *f && strcmp(f, "0") != 0;
    p->disable_ptx_jit = d && *d && strcmp(d, "0") != 0;
}

/* Whether PTX names a .target its .version predates: ptxas, and so the JIT, refuses it. */
bool fc_ptx_isa_predates_target(const fc_entry *e)
{
    unsigned min = fc_ptx_target_min_isa(e->arch, e->variant);
    return min && (e->version_major || e->version_minor) && e->version_major * 10u + e->version_minor < min;
}

/* Whether a driver supporting CUDA version DRIVER (0: new enough) compiles PTX of this ISA. */
static bool driver_takes_ptx(const fc_entry *e, int driver)
{
    if (!driver)
        return true;
    int needs = fc_ptx_isa_cuda_version(e->version_major, e->version_minor);
    if (!needs) /* unknown ISA: newer than every table row if above them, else old */
        return e->version_major < 6;
    return needs <= driver;
}

/* Drivers read zstd-compressed images from CUDA 12.4 (550.54.14) on: nvcc's documentation of
 * --compress-mode ("not compatible with drivers released before CUDA Toolkit's 12.4
 * release"), rapids-cmake's (size and balance, the zstd modes: "CUDA 12 Requires Driver
 * Version: 550.54.14+"; the LZ4 ones 525.60.13+). A driver of unknown version (0) is taken
 * to read them. */
static fc_load readable_by(const fc_container *c, const fc_target *t, fc_load l)
{
    if (l.result == FC_LOAD_SUCCESS && t->driver_cuda && t->driver_cuda < 12040 &&
        c->entries[l.entry].compression == FC_COMPRESSION_ZSTD)
        l.result = FC_LOAD_UNSUPPORTED_COMPRESSION;
    return l;
}

static fc_load choose_load(const fc_container *c, const fc_target *t, const fc_jit_policy *p);

fc_load fc_predict_load(const fc_container *c, const fc_target *t, const fc_jit_policy *p)
{
    return readable_by(c, t, choose_load(c, t, p));
}

static fc_load choose_load(const fc_container *c, const fc_target *t, const fc_jit_policy *p)
{
    fc_jit_policy none = {false, false};
    if (!p)
        p = &none;
    if (c->role == FC_ROLE_LINK_INPUT)
        return (fc_load){FC_LOAD_LINK_INPUT, FC_VIA_NONE, -1, false};
    int native = -1, compatible = -1, ptx = -1, refused_ptx = -1;
    for (size_t i = 0; i < c->n_entries; i++) {
        const fc_entry *e = &c->entries[i];
        if (e->kind == FC_IMAGE_CUBIN) {
            /* CUDA_FORCE_PTX_JIT steers the choice inside fat binaries; a cubin handed to
             * the driver on its own is still loaded (seen with the real driver). */
            bool forced = p->force_ptx_jit && c->origin != FC_ORIGIN_CUBIN_FILE && c->origin != FC_ORIGIN_EMBEDDED_CUBIN;
            if (forced || !fc_cubin_runs_on(e->arch, e->variant, t->cc, t->tegra))
                continue;
            if (e->arch == t->cc) {
                if (native < 0)
                    native = (int)i;
            } else if (compatible < 0 || e->arch > c->entries[compatible].arch) {
                compatible = (int)i;
            }
        } else if (e->kind == FC_IMAGE_PTX) {
            if (!fc_ptx_jits_for(e->arch, e->variant, t->cc))
                continue;
            if (!driver_takes_ptx(e, t->driver_cuda)) {
                if (refused_ptx < 0 || e->arch > c->entries[refused_ptx].arch)
                    refused_ptx = (int)i;
                continue;
            }
            if (ptx < 0 || e->arch > c->entries[ptx].arch)
                ptx = (int)i;
        }
    }
    if (native >= 0)
        return (fc_load){FC_LOAD_SUCCESS, FC_VIA_NATIVE, native, false};
    if (compatible >= 0)
        return (fc_load){FC_LOAD_SUCCESS, FC_VIA_COMPATIBLE, compatible, false};
    if (ptx >= 0 && p->disable_ptx_jit)
        return (fc_load){FC_LOAD_JIT_DISABLED, FC_VIA_NONE, ptx, false};
    if (ptx >= 0) /* PTX older than its target: the JIT cannot read it (review 2, R5) */
        return fc_ptx_isa_predates_target(&c->entries[ptx]) ? (fc_load){FC_LOAD_INVALID_PTX, FC_VIA_JIT, ptx, true}
                                                          : (fc_load){FC_LOAD_SUCCESS, FC_VIA_JIT, ptx, false};
    if (refused_ptx >= 0)
        return p->disable_ptx_jit ? (fc_load){FC_LOAD_JIT_DISABLED, FC_VIA_NONE, refused_ptx, false}
                                  : (fc_load){FC_LOAD_UNSUPPORTED_PTX, FC_VIA_NONE, refused_ptx, false};
    return (fc_load){FC_LOAD_NO_BINARY, FC_VIA_NONE, -1, false};
}

/* nvlink 13.0, checked here (fixtures/oracle, docs/matching.md): linking for sm_90 takes an
 * sm_90 or sm_90a cubin, or compute_80 PTX, and refuses sm_80, sm_86 cubins and compute_100
 * PTX ("SM Arch ('sm_90') not found"); linking for sm_89 takes an sm_86 cubin, for sm_103 an
 * sm_100f one: the driver's own compatibility rules. */
fc_link fc_predict_link(const fc_container *c, const fc_target *t)
{
    int cubin = -1, ptx = -1, ltoir = -1;
    for (size_t i = 0; i < c->n_entries; i++) {
        const fc_entry *e = &c->entries[i];
        if (e->kind == FC_IMAGE_CUBIN && fc_cubin_runs_on(e->arch, e->variant, t->cc, t->tegra)) {
            bool have_exact = cubin >= 0 && c->entries[cubin].arch == t->cc;
            if (!have_exact && (cubin < 0 || e->arch == t->cc || e->arch > c->entries[cubin].arch))
                cubin = (int)i; /* exactly T's architecture first, else the newest compatible */
        } else if (e->kind == FC_IMAGE_PTX && fc_ptx_jits_for(e->arch, e->variant, t->cc)) {
            if (ptx < 0 || e->arch > c->entries[ptx].arch)
                ptx = (int)i;
        } else if (e->kind == FC_IMAGE_LTOIR && fc_ptx_jits_for(e->arch, e->variant, t->cc)) {
            if (ltoir < 0 || e->arch > c->entries[ltoir].arch)
                ltoir = (int)i;
        }
    }
    if (cubin >= 0)
        return (fc_link){FC_LINK_VIA_CUBIN, cubin};
    if (ptx >= 0)
        return (fc_link){FC_LINK_VIA_PTX, ptx};
    if (ltoir >= 0)
        return (fc_link){FC_LINK_VIA_LTOIR, ltoir};
    return (fc_link){FC_LINK_VIA_NONE, -1};
}

const char *fc_link_via_name(fc_link_via v)
{
    switch (v) {
    case FC_LINK_VIA_CUBIN: return "cubin";
    case FC_LINK_VIA_PTX: return "ptx";
    case FC_LINK_VIA_LTOIR: return "ltoir";
    case FC_LINK_VIA_NONE: break;
    }
    return "none";
}

const char *fc_role_name(fc_role r)
{
    return r == FC_ROLE_LINK_INPUT ? "link_input" : "module";
}

const char *fc_load_result_name(fc_load_result r)
{
    switch (r) {
    case FC_LOAD_SUCCESS: return "CUDA_SUCCESS";
    case FC_LOAD_NO_BINARY: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
    case FC_LOAD_UNSUPPORTED_PTX: return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    case FC_LOAD_JIT_DISABLED: return "CUDA_ERROR_JIT_COMPILATION_DISABLED";
    case FC_LOAD_INVALID_PTX: return "CUDA_ERROR_INVALID_PTX";
    case FC_LOAD_LINK_INPUT: return "LINK_INPUT";
    case FC_LOAD_RELOCATABLE: return "RELOCATABLE_MODULE";
    case FC_LOAD_INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
    case FC_LOAD_EMPTY: return "EMPTY_CONTAINER";
    case FC_LOAD_UNSUPPORTED_COMPRESSION: return "UNSUPPORTED_COMPRESSION";
    case FC_LOAD_INVALID_SOURCE: return "CUDA_ERROR_INVALID_SOURCE";
    case FC_LOAD_UNCOMPRESS_FAILED: return "UNCOMPRESS_FAILED";
    }
    return "unknown";
}

const char *fc_load_via_name(fc_load_via v)
{
    switch (v) {
    case FC_VIA_NATIVE: return "native";
    case FC_VIA_COMPATIBLE: return "compatible";
    case FC_VIA_JIT: return "jit";
    case FC_VIA_NONE: break;
    }
    return "none";
}
