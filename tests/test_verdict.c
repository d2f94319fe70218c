/* test_verdict.c - the verdict rules of fatcheck/verdict.h, one by one, on objects made here
 * (whose containers the runtime registers, so no image is read) and on fixtures: the counts and
 * status per target, the runtime rule, link inputs and unused ones, the probe-free totals, the
 * PTX requirement, the arch-list check, the problems a check fails on, the kernels a target
 * lacks, target merging and the advice inputs. */
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "tap.h"
#include "testutil.h"

/* A cubin of CUDA 12's toolchain (code version 1.7, ELF ABI 7): what the drivers of every
 * release these tests name run. CUDA 13's (1.8) need a CUDA 13.0 driver (rule 13). */
static fc_entry cubin(unsigned arch)
{
    return (fc_entry){.kind = FC_IMAGE_CUBIN, .arch = arch, .version_major = 1, .version_minor = 7};
}

static fc_entry ptx(unsigned arch, unsigned isa_major, unsigned isa_minor)
{
    return (fc_entry){.kind = FC_IMAGE_PTX, .arch = arch, .version_major = (uint16_t)isa_major,
                      .version_minor = (uint16_t)isa_minor};
}

static fc_target target(unsigned cc, int driver)
{
    fc_target t = {.cc = cc, .driver_cuda = driver};
    snprintf(t.source, sizeof t.source, "--gpu %u.%u", cc / 10, cc % 10);
    return t;
}

static fc_judgement *judge(const fc_object *o, const fc_judge_options *jo)
{
    fc_judgement *j = NULL;
    if (fc_judge(&j, o, jo) != FC_OK)
        return NULL;
    return j;
}

static void test_counts_and_status(void)
{
    /* three modules: sm_80 only; sm_86 + compute_86 (PTX ISA 8.4); sm_90 only */
    fc_entry e0[] = {cubin(80)}, e1[] = {cubin(86), ptx(86, 8, 4)}, e2[] = {cubin(90)};
    fc_container c[] = {
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e0, .n_entries = 1},
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e1, .n_entries = 2},
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e2, .n_entries = 1},
    };
    fc_object o = {.path = "x", .label = "x", .format = FC_FORMAT_ELF, .containers = c, .n_containers = 3};
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    fc_target ts[] = {target(80, 0), target(89, 0), target(90, 12030), target(70, 0)};
    for (size_t i = 0; i < 4; i++)
        fc_judge_options_add_target(&jo, &ts[i], -1);
    fc_judgement *j = judge(&o, &jo);
    if (!ok(j != NULL, "judged"))
        return;
    const fc_verdict *v = fc_judgement_verdict(j, 0);
    is_u64(v->status, FC_VERDICT_PARTIAL, "sm_80: partial");
    is_u64(v->native, 1, "sm_80: one native");
    is_u64(v->jit, 0, "sm_80: compute_86 is not JIT-compiled for 8.0");
    is_u64(v->no_binary, 2, "sm_80: two without an image");
    v = fc_judgement_verdict(j, 1);
    is_u64(v->status, FC_VERDICT_PARTIAL, "sm_89: partial");
    is_u64(v->compatible, 2, "sm_89: sm_80 and sm_86 run as compatible SASS");
    is_u64(v->compatible_arch, 86, "sm_89: the newest compatible arch is noted");
    v = fc_judgement_verdict(j, 2);
    is_u64(v->status, FC_VERDICT_PARTIAL, "sm_90 on a CUDA 12.3 driver: partial");
    is_u64(v->unsupported_ptx, 1, "sm_90: PTX ISA 8.4 is newer than a 12.3 driver takes");
    is_u64(v->native, 1, "sm_90: its own cubin");
    v = fc_judgement_verdict(j, 3);
    is_u64(v->status, FC_VERDICT_NONE, "sm_70: none");
    is_u64(fc_judgement_load(j, 1, 2).result, FC_LOAD_UNSUPPORTED_PTX, "the load of container 1 on sm_90");
    is_u64(fc_judgement_load(j, 0, 0).via, FC_VIA_NATIVE, "the load of container 0 on sm_80");
    is_u64(fc_judgement_link(j, 0, 0).via, FC_LINK_VIA_NONE, "a module has no link");
    ok(fc_judgement_probe(j, 0, 0) == NULL && fc_judgement_probe_totals(j) == NULL, "nothing probed");
    const fc_ptx_need *p = fc_judgement_ptx(j);
    ok(p->isa_major == 8 && p->isa_minor == 4 && p->cuda == 12040, "PTX ISA 8.4 needs CUDA 12.4");
    is_str(p->min_driver, fc_cuda_min_driver(12040), "and that release's driver");
    is_u64(fc_judgement_registered(j), 3, "three registered containers");
    is_u64(fc_judgement_problems(j, &o), FC_PROBLEM_LOAD, "a none verdict fails the check");
    is_u64(fc_judgement_built_by(j), 12, "built by CUDA 12, as its PTX tells");
    fc_judgement_free(j);

    jo.strict = true;
    jo.n_targets = 1; /* sm_80 alone: partial */
    j = judge(&o, &jo);
    is_u64(fc_judgement_problems(j, &o), FC_PROBLEM_LOAD, "strict: a partial verdict fails too");
    jo.strict = false;
    fc_judgement_free(j);
    j = judge(&o, &jo);
    is_u64(fc_judgement_problems(j, &o), 0, "not strict: a partial verdict passes");
    o.error = "x: broken";
    is_u64(fc_judgement_problems(j, &o), FC_PROBLEM_INPUT, "a decoding error is an input problem");
    is_u64(fc_judgement_problems(NULL, &o), FC_PROBLEM_INPUT, "also without a judgement");
    fc_judgement_free(j);

    o.n_containers = 0;
    jo.n_targets = 1;
    j = judge(&o, &jo);
    is_u64(fc_judgement_verdict(j, 0)->status, FC_VERDICT_NO_CODE, "no containers: no-code");
    is_str(fc_verdict_status_name(FC_VERDICT_NO_CODE), "no-code", "named no-code");
    fc_judgement_free(j);
}

static void test_runtime(void)
{
    fc_entry e[] = {cubin(90)};
    fc_container c = {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e, .n_entries = 1};
    const char *needed[] = {"libcudart.so.13"};
    fc_object o = {.path = "x", .format = FC_FORMAT_ELF, .containers = &c, .n_containers = 1, .needed = needed,
                   .n_needed = 1, .linked_program = true};
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    fc_target old = target(90, 12040), new = target(90, 13000);
    fc_judge_options_add_target(&jo, &old, -1);
    fc_judge_options_add_target(&jo, &new, -1);
    fc_judgement *j = judge(&o, &jo);
    if (!ok(j != NULL, "judged"))
        return;
    is_u64(fc_judgement_runtime(j)->kind, FC_RUNTIME_SHARED, "libcudart.so.13: a shared runtime");
    ok(fc_judgement_verdict(j, 0)->runtime_fails && fc_judgement_verdict(j, 0)->status == FC_VERDICT_NONE,
       "a CUDA 12.4 driver cannot start it: none, whatever its images");
    ok(!fc_judgement_verdict(j, 1)->runtime_fails && fc_judgement_verdict(j, 1)->status == FC_VERDICT_OK,
       "a CUDA 13.0 driver starts it: ok");
    is_u64(fc_judgement_built_by(j), 13, "built by CUDA 13, as its runtime tells");
    fc_judgement_free(j);
}

/* Rule 13: a cubin CUDA 13's toolchain wrote (its entry's code version 1.8, or ELF ABI 8 in a
 * cubin file) on a driver before CUDA 13.0 was ok: NVIDIA runs what CUDA 13.x builds on 580
 * and later only (review of 2026-12-05, rt7's open question). */
static void test_cubins_newer_than_the_driver(void)
{
    fc_entry e0[] = {cubin(90)}, e1[] = {cubin(90)}, e2[] = {cubin(90)};
    e1[0].version_minor = 8;
    e2[0].version_major = e2[0].version_minor = 0;
    e2[0].elf_abi_version = 8;
    fc_container c[] = {
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e0, .n_entries = 1},
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e1, .n_entries = 1},
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e2, .n_entries = 1},
    };
    fc_object o = {.path = "x", .label = "x", .format = FC_FORMAT_ELF, .containers = c, .n_containers = 3};
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    fc_target ts[] = {target(90, 12090), target(90, 13000), target(90, 0)};
    for (size_t i = 0; i < 3; i++)
        fc_judge_options_add_target(&jo, &ts[i], -1);
    fc_judgement *j = judge(&o, &jo);
    if (!ok(j != NULL, "judged"))
        return;
    is_u64(fc_judgement_load(j, 0, 0).result, FC_LOAD_SUCCESS, "a CUDA 12 cubin on a CUDA 12.9 driver loads");
    is_u64(fc_judgement_load(j, 1, 0).result, FC_LOAD_TOOLKIT_TOO_NEW, "code version 1.8 on 12.9: too new");
    is_u64(fc_judgement_load(j, 2, 0).result, FC_LOAD_TOOLKIT_TOO_NEW, "ELF ABI 8 on 12.9: too new");
    const fc_verdict *v = fc_judgement_verdict(j, 0);
    ok(v->status == FC_VERDICT_PARTIAL && v->toolkit_too_new == 2 && v->native == 1, "12.9: partial, 2 too new");
    ok(fc_judgement_verdict(j, 1)->status == FC_VERDICT_OK, "a CUDA 13.0 driver runs all three");
    ok(fc_judgement_verdict(j, 2)->status == FC_VERDICT_OK, "a driver of unknown version is taken to");
    is_u64(fc_cubin_toolkit_cuda(&e1[0]), 13000, "built by CUDA 13");
    is_u64(fc_cubin_toolkit_cuda(&e0[0]), 0, "not dated");
    fc_judgement_free(j);
}

static void test_unlinked_and_refused(void)
{
    fc_entry e[] = {cubin(90)};
    fc_container c = {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e, .n_entries = 1};
    fc_object o = {.path = "x", .format = FC_FORMAT_ELF, .containers = &c, .n_containers = 1,
                   .device_link_missing = true};
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    fc_target t = target(90, 12000);
    fc_judge_options_add_target(&jo, &t, -1);
    fc_judgement *j = judge(&o, &jo);
    ok(fc_judgement_verdict(j, 0)->unlinked && fc_judgement_verdict(j, 0)->status == FC_VERDICT_NONE,
       "never device-linked: none, though its cubin is native");
    fc_judgement_free(j);

    const char *reqs[] = {"cuda>=12.4"};
    fc_oci_image img = {.name = "app:1.0", .requirements = reqs, .n_requirements = 1};
    fc_oci_file in = {.image = &img, .path = "/usr/lib/x.so"};
    o.device_link_missing = false;
    o.in_image = &in;
    j = judge(&o, &jo);
    const fc_verdict *v = fc_judgement_verdict(j, 0);
    ok(v->container == FC_REQUIRE_UNMET && v->status == FC_VERDICT_NONE && v->container_why[0],
       "a container the toolkit refuses on a CUDA 12.0 driver: none");
    fc_judgement_free(j);
    jo.targets[0].driver_cuda = 12040;
    j = judge(&o, &jo);
    v = fc_judgement_verdict(j, 0);
    ok(v->container == FC_REQUIRE_MET && v->status == FC_VERDICT_OK, "started on a CUDA 12.4 driver: ok");
    fc_judgement_free(j);
}

static void test_link_inputs(void)
{
    fc_entry mod[] = {cubin(80)}, rel[] = {cubin(80), ptx(80, 8, 0)}, rel_only90[] = {cubin(90)};
    fc_container c[] = {
        {.origin = FC_ORIGIN_SECTION, .section = "__nv_relfatbin", .entries = rel, .n_entries = 2,
         .role = FC_ROLE_LINK_INPUT},
        {.origin = FC_ORIGIN_SECTION, .section = "__nv_relfatbin", .entries = rel_only90, .n_entries = 1,
         .role = FC_ROLE_LINK_INPUT},
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = mod, .n_entries = 1},
    };
    fc_object o = {.path = "x", .format = FC_FORMAT_ELF, .containers = c, .n_containers = 2};
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    fc_target t = target(86, 0);
    fc_judge_options_add_target(&jo, &t, -1);
    fc_judgement *j = judge(&o, &jo);
    const fc_verdict *v = fc_judgement_verdict(j, 0);
    ok(v->modules == 0 && v->link_inputs == 2 && v->linkable == 1, "two link inputs, one linkable for sm_86");
    is_u64(v->linked_via[FC_LINK_VIA_CUBIN], 1, "through its sm_80 cubin");
    is_u64(v->status, FC_VERDICT_PARTIAL, "partial");
    is_u64(fc_judgement_load(j, 0, 0).result, FC_LOAD_LINK_INPUT, "no driver result for a link input");
    is_u64(fc_judgement_link(j, 0, 0).entry, 0, "the linker takes entry 0");
    ok(!fc_judgement_unused(j, 0), "used: no .nv_fatbin beside it");
    is_str(fc_object_registered_section(&o), "__nv_relfatbin", "the runtime registers __nv_relfatbin");
    fc_judgement_free(j);

    o.n_containers = 3; /* with .nv_fatbin, __nv_relfatbin is never used */
    j = judge(&o, &jo);
    v = fc_judgement_verdict(j, 0);
    ok(fc_judgement_unused(j, 0) && fc_judgement_unused(j, 1) && !fc_judgement_unused(j, 2),
       "beside .nv_fatbin, the link inputs are unused");
    ok(v->unused_link_inputs == 2 && v->link_inputs == 0 && v->modules == 1, "counted apart");
    is_u64(v->status, FC_VERDICT_OK, "its one module loads: ok");
    is_str(fc_object_registered_section(&o), ".nv_fatbin", "the runtime registers .nv_fatbin");
    fc_judgement_free(j);
}

static void test_arch_list(void)
{
    fc_entry e0[] = {cubin(80), cubin(90), ptx(90, 8, 0)}, e1[] = {cubin(80), cubin(86)}, e2[] = {cubin(75)};
    fc_container c[] = {
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e0, .n_entries = 3},
        {.origin = FC_ORIGIN_SECTION, .section = ".nv_fatbin", .entries = e1, .n_entries = 2},
        {.origin = FC_ORIGIN_EMBEDDED, .section = ".rodata", .entries = e2, .n_entries = 1},
    };
    fc_object o = {.path = "x", .format = FC_FORMAT_ELF, .containers = c, .n_containers = 1};
    fc_arch_list list;
    char err[256];
    ok(fc_arch_list_parse(&list, "8.0;9.0+PTX", err, sizeof err) == FC_OK, "8.0;9.0+PTX parses");
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    jo.arch_list = &list;
    fc_judgement *j = judge(&o, &jo);
    const fc_arch_check *a = fc_judgement_arch_check(j);
    if (!ok(a != NULL, "checked"))
        return;
    ok(a->matches && a->n_expected == 3 && a->n_unexpected == 0, "one container holding exactly the list matches");
    is_u64(fc_judgement_problems(j, &o), 0, "no problem");
    fc_judgement_free(j);

    o.n_containers = 3; /* the second lacks sm_90 and compute_90 and has sm_86; the embedded one is not checked */
    j = judge(&o, &jo);
    a = fc_judgement_arch_check(j);
    ok(!a->matches, "a container without sm_90 does not match");
    ok(a->expected[0].kind == FC_IMAGE_CUBIN && a->expected[0].cc == 80 && a->expected[0].lacking == 0,
       "sm_80 is in both");
    ok(a->expected[1].cc == 90 && a->expected[1].lacking == 1 && a->expected[2].kind == FC_IMAGE_PTX &&
           a->expected[2].lacking == 1, "sm_90 and compute_90 lack in one");
    ok(a->n_unexpected == 1 && strcmp(a->unexpected[0], "sm_86") == 0, "sm_86 was not asked for (sm_75 is data)");
    is_u64(fc_judgement_registered(j), 2, "two containers are not kept as data");
    is_u64(fc_judgement_problems(j, &o), FC_PROBLEM_ARCH_LIST, "an arch-list problem");
    fc_judgement_free(j);

    jo.arch_list = NULL;
    j = judge(&o, &jo);
    ok(fc_judgement_arch_check(j) == NULL, "no list, no check");
    fc_judgement_free(j);
}

typedef struct kernels_run {
    fc_judge_options *jo;
    int objects;
} kernels_run;

static int on_kernels_object(void *ctx, const fc_object *obj)
{
    kernels_run *run = ctx;
    run->objects++;
    fc_judgement *j = judge(obj, run->jo);
    if (!ok(j != NULL, "judged %s", obj->label))
        return 0;
    /* fixtures/libmulti.so: sm_80 + compute_80 and sm_90 + compute_90 modules, and the device
     * link step's sm_75 cubin, which defines nothing (fixtures/make-fixtures.sh) */
    const fc_verdict *v = fc_judgement_verdict(j, 0);
    ok(v->status == FC_VERDICT_PARTIAL && v->modules == 2 && v->native == 1 && v->no_binary == 1 &&
           v->defines_nothing == 1,
       "sm_80: one of two modules; the sm_75 cubin of the link step defines nothing and is not one");
    const fc_missing_kernel *m;
    size_t n = fc_judgement_missing_kernels(&m, j, 0);
    if (ok(n == 1, "one kernel is missing on sm_80"))
        ok(strcmp(m[0].name, "fc_tu_b_square") == 0 && strcmp(m[0].available_in, "sm_90 compute_90") == 0 &&
               m[0].containers == 1, "fc_tu_b_square, in sm_90 compute_90");
    const fc_kernel_list *kl;
    size_t entries = 0, lists = 0;
    for (size_t c = 0; c < obj->n_containers; c++)
        for (size_t e = 0; e < obj->containers[c].n_entries; e++, entries++)
            lists += fc_judgement_kernels(&kl, j, c, e) == FC_OK && kl != NULL;
    is_u64(lists, entries, "every image's kernels were read");
    ok(fc_judgement_kernels(&kl, j, 0, 0) == FC_OK && kl->n == 0, "the sm_75 module has none");
    ok(fc_judgement_kernels(&kl, j, obj->n_containers, 0) == FC_ERR_INVALID && !kl, "past the last container");
    fc_judgement_free(j);
    return 0;
}

static void test_kernels(void)
{
    fc_options opts;
    fc_options_init(&opts);
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    jo.kernels = true;
    jo.scan = &opts;
    fc_target t = target(80, 13000);
    fc_judge_options_add_target(&jo, &t, -1);
    kernels_run run = {&jo, 0};
    fc_scan(fixture_path("libmulti.so"), &opts, on_kernels_object, NULL, &run);
    is_u64(run.objects, 1, "libmulti.so scanned");
}

static void test_targets(void)
{
    fc_judge_options jo;
    fc_judge_options_init(&jo);
    fc_target a = target(90, 0), b = target(90, 0), c = target(90, 12040), local = target(90, 0);
    snprintf(b.source, sizeof b.source, "--arch-list");
    ok(fc_judge_options_add_target(&jo, &a, -1) == FC_OK && fc_judge_options_add_target(&jo, &b, -1) == FC_OK,
       "added");
    is_u64(jo.n_targets, 1, "an equal named target is merged");
    is_str(jo.targets[0].source, "--gpu 9.0, --arch-list", "its source joined");
    fc_judge_options_add_target(&jo, &a, -1);
    is_str(jo.targets[0].source, "--gpu 9.0, --arch-list", "a source already there is not repeated");
    fc_judge_options_add_target(&jo, &c, -1);
    fc_judge_options_add_target(&jo, &local, 0);
    is_u64(jo.n_targets, 3, "another driver, and a local device, are targets of their own");
    is_u64(jo.device[2], 0, "bound to device 0");
    while (jo.n_targets < FC_MAX_TARGETS)
        fc_judge_options_add_target(&jo, &local, (int)jo.n_targets);
    is_u64(fc_judge_options_add_target(&jo, &local, 99), FC_ERR_LIMIT, "no more than FC_MAX_TARGETS");
}

static void test_advice(void)
{
    fc_entry e0[] = {cubin(90), ptx(90, 8, 0)}, e1[] = {cubin(75)};
    fc_entry e1a = cubin(90);
    e1a.variant = FC_VARIANT_ARCH_SPECIFIC;
    fc_entry e2[] = {cubin(75), e1a};
    fc_container c[] = {
        {.origin = FC_ORIGIN_SECTION, .entries = e0, .n_entries = 2},
        {.origin = FC_ORIGIN_EMBEDDED, .entries = e1, .n_entries = 1},
        {.origin = FC_ORIGIN_SECTION, .entries = e2, .n_entries = 2},
    };
    fc_object o = {.path = "/usr/lib/libcublasLt.so.13.0.1", .format = FC_FORMAT_ELF, .containers = c,
                   .n_containers = 3};
    fc_target ts[] = {target(86, 0), target(90, 0)};
    unsigned ccs[8];
    size_t n = fc_covering_ccs(ccs, 8, &o, ts, 2);
    ok(n == 3 && ccs[0] == 75 && ccs[1] == 86 && ccs[2] == 90,
       "covering: plain cubins not kept as data, and the targets, ascending, once");
    n = fc_covering_ccs(ccs, 8, NULL, ts, 2);
    ok(n == 2 && ccs[0] == 86 && ccs[1] == 90, "the targets alone");
    fc_build_flags f;
    fc_build_flags_format(&f, ccs, n, true);
    is_str(f.torch, "8.6;9.0+PTX", "TORCH_CUDA_ARCH_LIST");
    is_str(f.cmake, "86-real;90", "CUDA_ARCHITECTURES");
    is_str(f.nvcc, "-gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90 "
                   "-gencode arch=compute_90,code=compute_90", "nvcc");
    ok(fc_last_cuda_building(70) == 12 && fc_last_cuda_building(37) == 11 && fc_last_cuda_building(30) == 10 &&
           fc_last_cuda_building(75) == 0, "the last CUDA that builds an architecture");
    ok(fc_oldest_cc_built_by(13) == 75 && fc_oldest_cc_built_by(12) == 50 && fc_oldest_cc_built_by(11) == 35,
       "the oldest architecture a CUDA builds");
    char lib[64];
    is_str(fc_nvidia_library(lib, sizeof lib, &o), "libcublasLt", "NVIDIA's cuBLASLt");
    o.path = "libfoo.so";
    ok(fc_nvidia_library(lib, sizeof lib, &o) == NULL, "not NVIDIA's");
    o.member = "torch/lib/libtorch_cuda.so";
    ok(fc_torch_library(&o), "PyTorch's CUDA library, by its member name");
    ok(fc_container_kept_as_data(&c[1]) && !fc_container_kept_as_data(&c[0]), "embedded containers are data");
}

static void test_torch_stale(void)
{
    fc_torch_extension x = {.python = "3.12", .cuda = 13000};
    is_u64(fc_torch_extension_stale(&x, "3.11", -1), 1, "another Python: stale");
    is_u64(fc_torch_extension_stale(&x, "3.12", 12080), 1, "another CUDA: stale");
    is_u64(fc_torch_extension_stale(&x, "3.12", 13000), 0, "the same: not stale");
    is_u64(fc_torch_extension_stale(&x, "3.12", -1), 0, "torch's CUDA unknown: not stale");
    ok(fc_torch_extension_stale(&x, "", 13000) < 0, "the current Python unknown: cannot tell");
    x.python[0] = '\0';
    ok(fc_torch_extension_stale(&x, "3.12", 13000) < 0, "not in a version folder: cannot tell");
}

int main(void)
{
    test_counts_and_status();
    test_runtime();
    test_cubins_newer_than_the_driver();
    test_unlinked_and_refused();
    test_link_inputs();
    test_arch_list();
    test_kernels();
    test_targets();
    test_advice();
    test_torch_stale();
    return tap_done();
}
