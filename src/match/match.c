/* match.c - which image the CUDA driver loads from a container on a given GPU.
 *
 * The rules (docs/matching.md, ../shared/docs/compat-rules.md, checked with --probe):
 *  - a cubin sm_XY runs on CC X.z, z >= Y, same major, never across Jetson and desktop parts;
 *    sm_XYa only on exactly X.Y; sm_XYf within its family (same major, z >= Y);
 *  - PTX compute_XY is compiled for any CC >= X.Y; compute_XYa only for X.Y; compute_XYf
 *    within its family, as its cubins; and only when its ISA is not newer than the driver's CUDA version;
 *  - the driver prefers a cubin (the newest that runs; sm_90a before sm_90 on 9.0), then the
 *    newest PTX that fits, and fails when that one fails: it does not fall back to older PTX;
 *  - where its order between images was never seen (f images, a ones beyond 9.0), each image it
 *    might choose is listed (fc_load_alternatives), and the verdict fails if any fails;
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
    /* A family's PTX as its cubins: never across Jetson and desktop parts (compute_100f is for
     * 10.0 and 10.3, not Thor's 10.1; ptxas refuses .target sm_101f for sm_103: "cannot be
     * compiled to different SM-family architecture"), and no family below sm_100. */
    if (v == FC_VARIANT_FAMILY)
        return fc_cubin_runs_on(arch, v, cc, fc_cc_is_tegra(cc));
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

/* Rule 13: the CUDA version whose toolchain, at the least, wrote cubin E, as far as its headers
 * tell without reading it: ELF ABI version 8 (its EI_ABIVERSION, or the entry's code version
 * 1.8, which goes with it: bench/cubin_survey, 1.7 with 7 and 1.8 with 8 in 76,053 cubins of
 * CUDA 11.8 to 13.1) is CUDA 13's ptxas; 0 for anything else. NVIDIA's
 * minor version compatibility runs what a CUDA 13.x toolkit builds on drivers of 580 (CUDA
 * 13.0) and later only: a driver before it was judged to load such a cubin, which has only
 * a runtime to date it where one is linked (a bare cubin or fat binary, a Triton cache: review
 * of 2026-12-05, rt7's open question). */
int fc_cubin_toolkit_cuda(const fc_entry *e)
{
    if (e->kind != FC_IMAGE_CUBIN)
        return 0;
    bool abi8 = e->elf_abi_version >= 8 || e->version_major > 1 || (e->version_major == 1 && e->version_minor >= 8);
    return abi8 ? 13000 : 0;
}

/* Drivers read zstd-compressed images from CUDA 12.4 (550.54.14) on: nvcc's documentation of
 * --compress-mode ("not compatible with drivers released before CUDA Toolkit's 12.4
 * release"), rapids-cmake's (size and balance, the zstd modes: "CUDA 12 Requires Driver
 * Version: 550.54.14+"; the LZ4 ones 525.60.13+). A driver of unknown version (0) is taken
 * to read them. */
static fc_load readable_by(const fc_container *c, const fc_target *t, fc_load l)
{
    int built = fc_cubin_toolkit_cuda(&c->entries[l.entry]);
    if (l.result == FC_LOAD_SUCCESS && t->driver_cuda && built && t->driver_cuda < built)
        l.result = FC_LOAD_TOOLKIT_TOO_NEW;
    else if (l.result == FC_LOAD_SUCCESS && t->driver_cuda && t->driver_cuda < 12040 &&
             c->entries[l.entry].compression == FC_COMPRESSION_ZSTD)
        l.result = FC_LOAD_UNSUPPORTED_COMPRESSION;
    return l;
}

/* What the driver makes of entry I of C on T once it has chosen it: the driver does not fall
 * back to another image when the one it chose fails (rule 3). */
fc_load fc_load_of_entry(const fc_container *c, const fc_target *t, const fc_jit_policy *p, int i)
{
    const fc_entry *e = &c->entries[i];
    if (e->kind == FC_IMAGE_CUBIN)
        return readable_by(c, t, (fc_load){FC_LOAD_SUCCESS, e->arch == t->cc ? FC_VIA_NATIVE : FC_VIA_COMPATIBLE, i, false});
    if (p && p->disable_ptx_jit)
        return (fc_load){FC_LOAD_JIT_DISABLED, FC_VIA_NONE, i, false};
    if (!driver_takes_ptx(e, t->driver_cuda))
        return (fc_load){FC_LOAD_UNSUPPORTED_PTX, FC_VIA_NONE, i, false};
    if (fc_ptx_isa_predates_target(e)) /* PTX older than its target: the JIT cannot read it (review 2, R5) */
        return (fc_load){FC_LOAD_INVALID_PTX, FC_VIA_JIT, i, true};
    return readable_by(c, t, (fc_load){FC_LOAD_SUCCESS, FC_VIA_JIT, i, false});
}

/* The variants in the order the driver was seen to prefer them for one architecture: on 9.0,
 * sm_90a before sm_90 (rule 3); f last, unseen. */
static int variant_rank(fc_variant v)
{
    return v == FC_VARIANT_ARCH_SPECIFIC ? 0 : v == FC_VARIANT_NONE ? 1 : 2;
}

/* Whether entry E of kind KIND may be chosen on T at all. */
static bool fits(const fc_entry *e, fc_image_kind kind, const fc_target *t)
{
    if (e->kind != kind)
        return false;
    return kind == FC_IMAGE_CUBIN ? fc_cubin_runs_on(e->arch, e->variant, t->cc, t->tegra)
                                  : fc_ptx_jits_for(e->arch, e->variant, t->cc);
}

/* The entry of KIND the driver chooses on T: the newest architecture, and for one architecture
 * the variant it prefers; the first of equals. -1: none fits. */
static int chosen_of_kind(const fc_container *c, const fc_target *t, fc_image_kind kind)
{
    int best = -1;
    for (size_t i = 0; i < c->n_entries; i++) {
        const fc_entry *e = &c->entries[i];
        if (!fits(e, kind, t))
            continue;
        const fc_entry *b = best < 0 ? NULL : &c->entries[best];
        if (!b || e->arch > b->arch || (e->arch == b->arch && variant_rank(e->variant) < variant_rank(b->variant)))
            best = (int)i;
    }
    return best;
}

static fc_load choose_load(const fc_container *c, const fc_target *t, const fc_jit_policy *p)
{
    fc_jit_policy none = {false, false};
    if (!p)
        p = &none;
    if (c->role == FC_ROLE_LINK_INPUT)
        return (fc_load){FC_LOAD_LINK_INPUT, FC_VIA_NONE, -1, false};
    /* CUDA_FORCE_PTX_JIT steers the choice inside fat binaries; a cubin handed to the driver on
     * its own is still loaded (seen with the real driver). */
    bool forced = p->force_ptx_jit && c->origin != FC_ORIGIN_CUBIN_FILE && c->origin != FC_ORIGIN_EMBEDDED_CUBIN;
    int cubin = forced ? -1 : chosen_of_kind(c, t, FC_IMAGE_CUBIN);
    if (cubin >= 0)
        return fc_load_of_entry(c, t, p, cubin);
    /* The newest PTX, whatever its ISA: with compute_80 PTX of ISA 9.1 beside compute_75 PTX
     * of 9.0, the H200's 13.0 driver answered CUDA_ERROR_UNSUPPORTED_PTX_VERSION and compiled
     * neither (review of 2026-12-03, b2; until then fatcheck took compute_75). */
    int ptx = chosen_of_kind(c, t, FC_IMAGE_PTX);
    if (ptx >= 0)
        return fc_load_of_entry(c, t, p, ptx);
    return (fc_load){FC_LOAD_NO_BINARY, FC_VIA_NONE, -1, false};
}

fc_load fc_predict_load(const fc_container *c, const fc_target *t, const fc_jit_policy *p)
{
    return choose_load(c, t, p);
}

/* Whether the driver was seen to prefer CHOSEN to OTHER, both fitting T, or follows from a rule
 * taken as the driver's: among plain images the newest (for PTX, compute_80 before compute_75
 * on the H200; for cubins the Programming Guide's order); on 9.0 sm_90a before sm_90 (the
 * H200, driver 580.159.04, either order in the container: review of 2026-12-03, b1, b1b, v21b).
 * Every other pair (an f image against any, an a one on another GPU) was never seen. */
static bool order_seen(const fc_entry *chosen, const fc_entry *other, const fc_target *t)
{
    if (chosen->variant == FC_VARIANT_NONE && other->variant == FC_VARIANT_NONE)
        return true;
    return chosen->kind == FC_IMAGE_CUBIN && t->cc == 90 && chosen->variant == FC_VARIANT_ARCH_SPECIFIC &&
           other->variant == FC_VARIANT_NONE && other->arch == 90;
}

size_t fc_load_alternatives(const fc_container *c, const fc_target *t, int chosen, int *out, size_t max)
{
    if (c->role == FC_ROLE_LINK_INPUT || chosen < 0 || (size_t)chosen >= c->n_entries)
        return 0;
    const fc_entry *ch = &c->entries[chosen];
    size_t n = 0;
    for (size_t i = 0; i < c->n_entries && n < max; i++) {
        const fc_entry *e = &c->entries[i];
        if ((int)i == chosen || !fits(e, ch->kind, t) || order_seen(ch, e, t))
            continue;
        /* A plain image under a newer plain one is never chosen: the newer one is, or the
         * chosen one. */
        bool newer_plain = false;
        for (size_t k = 0; e->variant == FC_VARIANT_NONE && k < c->n_entries && !newer_plain; k++)
            newer_plain = fits(&c->entries[k], ch->kind, t) && c->entries[k].variant == FC_VARIANT_NONE &&
                          c->entries[k].arch > e->arch;
        if (!newer_plain)
            out[n++] = (int)i;
    }
    return n;
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
    case FC_LOAD_TOOLKIT_TOO_NEW: return "TOOLKIT_TOO_NEW";
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
