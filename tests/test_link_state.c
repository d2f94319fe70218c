/* test_link_state.c - the relocatable-code rules of link_state.c on the driver oracle's images
 * (tests/oracle; docs/matching.md): what each image refers to outside itself, its role, and
 * the whole-program PTX rule, each case with the driver's answer it rests on. */
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "tap.h"
#include "testutil.h"

#ifndef ORACLE_DIR
#error ORACLE_DIR must name tests/oracle/images
#endif

typedef struct seen {
    fc_link_state state;
    fc_role role;
    fc_load refined;
    int n;
} seen;

static int look(void *ctx, const fc_object *o)
{
    seen *s = ctx;
    if (o->n_containers != 1 || o->containers[0].n_entries < 1)
        return 0;
    const fc_container *c = &o->containers[0];
    s->n++;
    s->role = c->role;
    s->state = fc_entry_link_state(o, &c->entries[0], NULL);
    fc_target t;
    memset(&t, 0, sizeof t);
    t.cc = 90;
    s->refined = fc_refine_load(o, c, fc_predict_load(c, &t, NULL), NULL);
    return 0;
}

static seen of(const char *image)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ORACLE_DIR, image);
    seen s;
    memset(&s, 0, sizeof s);
    fc_scan(path, NULL, look, NULL, &s);
    return s;
}

static const struct {
    const char *image;
    fc_link_state state;
    fc_role role;
    const char *refined; /* fc_refine_load's answer for sm_90 */
    const char *evidence;
} cases[] = {
    /* Relocatable cubins: all link inputs, whatever they refer to. */
    {"ext_call.rdc.sm_90.cubin", FC_LINK_UNRESOLVED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "eager 500, lazy: its function fails 500; cuLinkComplete 300"},
    {"ext_def.rdc.sm_90.cubin", FC_LINK_SELF_CONTAINED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "eager 200 though nothing is unresolved; cuLinkComplete 0"},
    {"printf.rdc.sm_90.cubin", FC_LINK_SELF_CONTAINED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "vprintf is the driver's: cuLinkComplete 0; as a module eager 200"},
    {"malloc.rdc.sm_90.cubin", FC_LINK_SELF_CONTAINED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "malloc, free, __assertfail are the driver's: cuLinkComplete 0"},
    {"dynpar.rdc.sm_90.cubin", FC_LINK_UNRESOLVED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "the device runtime's launch functions: cuLinkComplete 300"},
    {"ext_call.cuda118.rdc.sm_90.cubin", FC_LINK_UNRESOLVED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "CUDA 11.8's ptxas: the same answers as 13.0's"},
    /* A relocatable cubin in a bare fat binary: a link input for the targets that take it. */
    {"ext_call.rdc.sm_90.fatbin", FC_LINK_UNRESOLVED, FC_ROLE_MODULE, "LINK_INPUT", "eager 500"},
    {"ext_def.rdc.sm_90.fatbin", FC_LINK_SELF_CONTAINED, FC_ROLE_MODULE, "LINK_INPUT", "eager 200"},
    /* PTX stored with --compile-only: a link input by its header. */
    {"ext_call.rdc.compute_80.fatbin", FC_LINK_UNRESOLVED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "eager 500, lazy: its function fails 500"},
    {"dynshared.rdc.compute_80.fatbin", FC_LINK_SELF_CONTAINED, FC_ROLE_LINK_INPUT, "LINK_INPUT",
     "eager 500 though only dynamic shared memory is extern"},
    /* The same PTX packed without --compile-only, and as text: compiled as a whole program. */
    {"ext_call.rdc-noopt.compute_80.fatbin", FC_LINK_UNRESOLVED, FC_ROLE_MODULE, "CUDA_ERROR_INVALID_PTX",
     "218: Unresolved extern function '_Z9fc_ext_opii'"},
    {"ext_call.rdc.compute_80.ptx", FC_LINK_UNRESOLVED, FC_ROLE_MODULE, "CUDA_ERROR_INVALID_PTX", "218"},
    {"ext_uncalled.rdc.compute_80.ptx", FC_LINK_UNRESOLVED, FC_ROLE_MODULE, "CUDA_ERROR_INVALID_PTX",
     "218 though only a non-entry function calls it"},
    {"ext_call.rdc.isa75.compute_80.ptx", FC_LINK_UNRESOLVED, FC_ROLE_MODULE, "CUDA_ERROR_INVALID_PTX",
     "218 with PTX ISA 7.5 too"},
    {"ext_var.rdc.compute_80.ptx", FC_LINK_UNRESOLVED, FC_ROLE_MODULE, "CUDA_SUCCESS",
     "an unresolved .global variable loads (0, lazy and eager)"},
    {"printf.rdc.compute_80.ptx", FC_LINK_SELF_CONTAINED, FC_ROLE_MODULE, "CUDA_SUCCESS", "0: vprintf"},
    {"malloc.rdc.compute_80.ptx", FC_LINK_SELF_CONTAINED, FC_ROLE_MODULE, "CUDA_SUCCESS", "0: malloc, free"},
    {"dynshared.rdc.compute_80.ptx", FC_LINK_SELF_CONTAINED, FC_ROLE_MODULE, "CUDA_SUCCESS",
     "0: .extern .shared is dynamic shared memory"},
    /* Whole-program builds. */
    {"printf.whole.sm_90.fatbin", FC_LINK_SELF_CONTAINED, FC_ROLE_MODULE, "CUDA_SUCCESS", "0"},
    {"malloc.whole.compute_80.fatbin", FC_LINK_SELF_CONTAINED, FC_ROLE_MODULE, "CUDA_SUCCESS", "0"},
};

/* Whole-program PTX read as ptxas reads it: each text below was given to ptxas 13.0 here
 * (-arch=sm_90); the driver's JIT is that compiler (tests/oracle: 218 with its message). */
#define HEAD ".version 9.0\n.target sm_90\n.address_size 64\n"
/* Twelve instructions: 216 bytes. */
#define PAD4 "\tmov.u32 \t%r1, 0;\n\tmov.u32 \t%r1, 0;\n\tmov.u32 \t%r1, 0;\n\tmov.u32 \t%r1, 0;\n"
#define PAD PAD4 PAD4 PAD4
#define CALLER "{\n\t.reg .b32 %r<2>;\n\t{\n\t.param .b32 retval0;\n\tcall.uni (retval0), foo, ();\n\t}\n\tret;\n}\n"
static const struct {
    const char *what, *text, *want, *ptxas;
} texts[] = {
    {"an .extern function called", HEAD ".extern .func (.param .b32 r) foo();\n.visible .entry k()\n" CALLER,
     "CUDA_ERROR_INVALID_PTX", "Unresolved extern function 'foo'"},
    {"the same after a comment on its line", HEAD "/* x */ .extern .func (.param .b32 r) foo();\n.visible .entry k()\n" CALLER,
     "CUDA_ERROR_INVALID_PTX", "Unresolved extern function 'foo'"},
    {"a bodiless .weak declaration", HEAD ".weak .func (.param .b32 r) foo();\n.visible .entry k()\n" CALLER,
     "CUDA_ERROR_INVALID_PTX", "Unresolved extern function 'foo'"},
    {"a .weak function with its body", HEAD ".weak .func (.param .b32 r) foo()\n{\n\tret;\n}\n.visible .entry k()\n" CALLER,
     "CUDA_SUCCESS", "clean"},
    {"an .extern inside a comment block", HEAD "/*\n.extern .func (.param .b32 r) bar();\n*/\n.visible .entry k()\n{\n\tret;\n}\n",
     "CUDA_SUCCESS", "clean"},
    {"cut short inside a body", HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n", "CUDA_ERROR_INVALID_PTX",
     "Parsing error near '': syntax error"},
    {"cut inside a declaration", HEAD ".visible .entry k(\n\t.param .u64 p0,\n", "CUDA_ERROR_INVALID_PTX",
     "Parsing error near '': syntax error"},
    {"a byte outside ASCII in a name", HEAD ".visible .entry k\xc3\xa9()\n{\n\tret;\n}\n",
     "CUDA_ERROR_INVALID_PTX", "Unexpected non-ASCII character"},
    {"a byte outside ASCII in a comment (the driver: tests/oracle's kernels.utf8comment.ptx)",
     HEAD "// caf\xc3\xa9\n.visible .entry k()\n{\n\tret;\n}\n", "CUDA_ERROR_INVALID_PTX",
     "Unexpected non-ASCII character"},
    /* Bodies are passed over 64 bytes at a time: what matters is put past the first block. */
    {"a brace in a comment deep in a long body", HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n" PAD
     "\t// a } in a comment\n" PAD "\t/* and a { here */\n" PAD "\tret;\n}\n", "CUDA_SUCCESS", "clean"},
    {"a byte outside ASCII deep in a long body", HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n" PAD
     "\tmov.u32 \t%r1, \xc3\xa9;\n" PAD "\tret;\n}\n", "CUDA_ERROR_INVALID_PTX", "Unexpected non-ASCII character"},
    {"an .extern called after a long body", HEAD ".visible .entry j()\n{\n\t.reg .b32 %r<2>;\n" PAD
     "\tret;\n}\n.extern .func (.param .b32 r) foo();\n.visible .entry k()\n" CALLER, "CUDA_ERROR_INVALID_PTX",
     "Unresolved extern function 'foo'"},
    {"cut short after a brace in a comment in a long body", HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n" PAD
     "\t// }\n" PAD, "CUDA_ERROR_INVALID_PTX", "Parsing error near '': syntax error"},
};

static int first_load(void *ctx, const fc_object *o)
{
    fc_load *out = ctx;
    if (o->n_containers == 1) {
        fc_target t;
        memset(&t, 0, sizeof t);
        t.cc = 90;
        *out = fc_refine_load(o, &o->containers[0], fc_predict_load(&o->containers[0], &t, NULL), NULL);
    }
    return 0;
}

/* PTX judged by its own head for a target (fc_refine_load_on, as fc_judge does; the H200's
 * driver 580 answered these for the review of 2026-12-03: F1, F2, M3): text in a fat binary
 * whose entry header says compute_90, ISA 9.0, whatever the text says. */
static const struct {
    const char *what, *text, *alone, *on;
} heads[] = {
    {"a .version newer than a CUDA 13.0 driver takes", ".version 9.1\n.target sm_90\n.address_size 64\n"
     ".visible .entry k()\n{\n\tret;\n}\n", "CUDA_SUCCESS", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {"a .target above the GPU", ".version 9.0\n.target sm_100\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n",
     "CUDA_SUCCESS", "CUDA_ERROR_INVALID_PTX"},
    {"no .version", ".target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", "CUDA_SUCCESS",
     "CUDA_ERROR_INVALID_PTX"},
    {".address_size 32", ".version 9.0\n.target sm_90\n.address_size 32\n.visible .entry k()\n{\n\tret;\n}\n",
     "CUDA_SUCCESS", "CUDA_ERROR_INVALID_PTX"},
    {"its own head as it should be", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n",
     "CUDA_SUCCESS", "CUDA_SUCCESS"},
};

typedef struct pair {
    fc_load alone, on;
} pair;

static int both_loads(void *ctx, const fc_object *o)
{
    pair *out = ctx;
    if (o->n_containers == 1) {
        fc_target t;
        memset(&t, 0, sizeof t);
        t.cc = 90;
        t.driver_cuda = 13000;
        fc_load l = fc_predict_load(&o->containers[0], &t, NULL);
        out->alone = fc_refine_load(o, &o->containers[0], l, NULL);
        out->on = fc_refine_load_on(o, &o->containers[0], l, &t, NULL);
    }
    return 0;
}

/* A fat binary of one uncompressed PTX entry holding TEXT under compress_none.fatbin's PTX
 * entry header (compute_90, ISA 9.0). */
static unsigned char *ptx_fatbin(const unsigned char *fixture, const char *text, size_t *size)
{
    const unsigned char *h = fixture + 16 + 64 + 7880; /* the PTX entry: after the sm_90 cubin */
    size_t hs = h[4] | (size_t)h[5] << 8, len = strlen(text), padded = (len + 8) & ~(size_t)7, body = hs + padded;
    unsigned char *b = calloc(1, 16 + body);
    memcpy(b, fixture, 16);
    for (unsigned k = 0; k < 8; k++)
        b[8 + k] = (unsigned char)((uint64_t)body >> 8 * k);
    memcpy(b + 16, h, hs);
    for (unsigned k = 0; k < 8; k++)
        b[16 + 8 + k] = (unsigned char)((uint64_t)padded >> 8 * k);
    memcpy(b + 16 + hs, text, len);
    *size = 16 + body;
    return b;
}

int main(void)
{
    size_t fixture_size;
    unsigned char *fixture = read_fixture("compress_none.fatbin", &fixture_size);
    for (size_t i = 0; fixture && i < sizeof heads / sizeof *heads; i++) {
        pair p = {{FC_LOAD_NO_BINARY, FC_VIA_NONE, -1, false}, {FC_LOAD_NO_BINARY, FC_VIA_NONE, -1, false}};
        size_t n;
        unsigned char *fb = ptx_fatbin(fixture, heads[i].text, &n);
        fc_scan_memory(fb, n, "t.fatbin", NULL, both_loads, NULL, &p);
        free(fb);
        ok(strcmp(fc_load_result_name(p.alone.result), heads[i].alone) == 0 &&
               strcmp(fc_load_result_name(p.on.result), heads[i].on) == 0,
           "PTX text, %s: fc_refine_load %s, fc_refine_load_on sm_90 with a 13.0 driver %s", heads[i].what,
           fc_load_result_name(p.alone.result), fc_load_result_name(p.on.result));
    }
    free(fixture);
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        fc_load l = {FC_LOAD_NO_BINARY, FC_VIA_NONE, -1, false};
        fc_scan_memory(texts[i].text, strlen(texts[i].text), "t.ptx", NULL, first_load, NULL, &l);
        is_str(fc_load_result_name(l.result), texts[i].want, "PTX text, %s (ptxas: %s)", texts[i].what, texts[i].ptxas);
    }
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        seen s = of(cases[i].image);
        ok(s.n == 1 && s.state == cases[i].state && s.role == cases[i].role &&
               strcmp(fc_load_result_name(s.refined.result), cases[i].refined) == 0,
           "%s: %s, %s, %s (driver: %s)", cases[i].image,
           cases[i].state == FC_LINK_UNRESOLVED ? "unresolved" : "self-contained", fc_role_name(cases[i].role),
           cases[i].refined, cases[i].evidence);
    }
    return tap_done();
}
