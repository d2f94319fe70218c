/* test_kernels.c - kernels read from cubins and PTX: names, demangling, registers, shared
 * memory, device functions, and the cubin's own architecture checked against its entry. */
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "tap.h"
#include "testutil.h"

typedef struct got {
    fc_kernel_list *lists[16];
    fc_status status[16];
    size_t n;
} got;

static int collect(void *ctx, const fc_object *o)
{
    got *g = ctx;
    for (size_t c = 0; c < o->n_containers; c++)
        for (size_t e = 0; e < o->containers[c].n_entries && g->n < 16; e++, g->n++)
            g->status[g->n] = fc_entry_kernels(&g->lists[g->n], o, &o->containers[c].entries[e], NULL);
    return 0;
}

static got kernels_of(const char *fixture)
{
    got g;
    memset(&g, 0, sizeof g);
    fc_scan(fixture_path(fixture), NULL, collect, NULL, &g);
    return g;
}

static void drop(got *g)
{
    for (size_t i = 0; i < g->n; i++)
        fc_kernel_list_free(g->lists[i]);
}

static const char *names(const fc_kernel_list *l)
{
    static char out[4096];
    out[0] = '\0';
    for (size_t i = 0; l && i < l->n; i++) {
        char one[512];
        snprintf(one, sizeof one, "%s%s%s/%d/%lld", i ? "; " : "", l->items[i].entry ? "" : "device ",
                 l->items[i].demangled, l->items[i].registers, (long long)l->items[i].shared_bytes);
        strncat(out, one, sizeof out - strlen(out) - 1);
    }
    return out;
}

/* The kernels of the one image of an in-memory PTX file. */
static int ptx_kernels_of(void *ctx, const fc_object *o)
{
    fc_kernel_list **out = ctx;
    if (o->n_containers == 1 && o->containers[0].n_entries == 1)
        fc_entry_kernels(out, o, &o->containers[0].entries[0], NULL);
    return 0;
}

/* A PTX file of N .entry and N .func declarations, each declared twice (a prototype, then
 * the definition), with names that share long prefixes and collide in their first bytes:
 * a list of 2 * N names in first-declaration order. Before names were hashed this took
 * minutes at N = 100,000 (bench/many_kernels.py times it). */
static void many_ptx_kernels(size_t n)
{
    size_t cap = 200 * n + 256, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, ".version 9.0\n.target sm_90\n.address_size 64\n\n");
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            len += (size_t)snprintf(text + len, cap - len, ".visible .entry k_a_long_common_prefix_%zu(\n)\n%s", i,
                                    pass ? "{\n\tret;\n}\n" : ";\n");
            len += (size_t)snprintf(text + len, cap - len, ".func (.reg .b32 r) f%zu_x(\n)\n%s", n - 1 - i,
                                    pass ? "{\n\tret;\n}\n" : ";\n");
        }
    fc_kernel_list *l = NULL;
    fc_scan_memory(text, len, "many.ptx", NULL, ptx_kernels_of, NULL, &l);
    int good = l && l->n == 2 * n;
    for (size_t i = 0; good && i < n; i++) {
        char want[64];
        snprintf(want, sizeof want, "k_a_long_common_prefix_%zu", i);
        good = strcmp(l->items[2 * i].name, want) == 0 && l->items[2 * i].entry;
        snprintf(want, sizeof want, "f%zu_x", n - 1 - i);
        good = good && strcmp(l->items[2 * i + 1].name, want) == 0 && !l->items[2 * i + 1].entry;
    }
    ok(good, "PTX with %zu declarations: each name once, in the order first declared", 4 * n);
    fc_kernel_list_free(l);
    free(text);
}

int main(void)
{
    got g = kernels_of("kernels.sm_90.cubin");
    ok(g.n == 1 && g.status[0] == FC_OK, "a cubin file has one image, read");
    /* Registers and shared memory as ptxas -v reported them when the fixtures were built. */
    is_str(names(g.lists[0]),
           "void fc_fixture::scale<double>(double*, double, int)/8/-1; "
           "void fc_fixture::scale<float>(float*, float, int)/8/-1; fc_add/12/-1",
           "kernels.sm_90.cubin: templates in a namespace demangled, extern \"C\" as is, registers");
    is_str(g.lists[0]->items[0].name, "_ZN10fc_fixture5scaleIdEEvPT_S1_i", "the mangled name is kept");
    ok(!g.lists[0]->arch_mismatch && g.lists[0]->elf_arch == 90, "its ELF header says sm_90 too");
    drop(&g);

    g = kernels_of("shared.sm_90.cubin");
    is_str(names(g.lists[0]), "fc_shared_reduce/24/1024; device fc_shared_sum(float const*, int)/84/-1",
           "shared.sm_90.cubin: static shared memory, and a device function beside the kernel");
    drop(&g);

    g = kernels_of("compress_size.fatbin");
    ok(g.n == 2 && g.status[0] == FC_OK && g.status[1] == FC_OK, "zstd cubin and PTX decompressed and read");
    is_str(names(g.lists[1]),
           "fc_add/-1/-1; void fc_fixture::scale<float>(float*, float, int)/-1/-1; "
           "void fc_fixture::scale<double>(double*, double, int)/-1/-1",
           "PTX .entry names, in the PTX's order");
    drop(&g);

    g = kernels_of("compress_speed.fatbin");
    is_str(names(g.lists[1]),
           "fc_add/-1/-1; void fc_fixture::scale<float>(float*, float, int)/-1/-1; "
           "void fc_fixture::scale<double>(double*, double, int)/-1/-1",
           "LZ4 PTX read");
    drop(&g);

    g = kernels_of("librdc.a");
    ok(g.n == 4, "two members, two images each");
    is_str(names(g.lists[0]), "fc_rdc_kernel/24/-1", "rdc_main.o: the kernel");
    is_str(names(g.lists[2]), "device fc_rdc_twice(float)/24/-1", "rdc_dev.o: a device function, no kernel");
    is_str(names(g.lists[3]), "device fc_rdc_twice(float)/-1/-1", "rdc_dev.o PTX: its .func");
    drop(&g);

    g = kernels_of("rdc_lto.o");
    ok(g.n == 1 && g.status[0] == FC_ERR_UNSUPPORTED && !g.lists[0], "obfuscated LTO-IR is not read");
    drop(&g);

    /* A fat binary whose entry claims sm_75 for the sm_80 cubin that follows. */
    size_t n;
    unsigned char *buf = read_fixture("all_archs.fatbin", &n);
    fc_object *o = NULL;
    fc_decode_fatbin(&o, buf, n, 0, NULL);
    fc_entry e = o->containers[0].entries[1];
    e.arch = 75;
    fc_kernel_list *l = NULL;
    ok(fc_entry_kernels(&l, o, &e, NULL) == FC_OK && l->arch_mismatch && l->elf_arch == 80,
       "an entry whose cubin says another architecture is flagged");
    fc_kernel_list_free(l);

    /* A cubin whose class byte is flipped reads, through libelf, as a 32-bit file with no
     * symbols: an empty list, not an error, before the header was checked. */
    e = o->containers[0].entries[1];
    unsigned char saved = buf[e.payload_offset + 4];
    buf[e.payload_offset + 4] = 1; /* EI_CLASS: ELFCLASS32 on a 64-bit header */
    l = NULL;
    ok(fc_entry_kernels(&l, o, &e, NULL) == FC_ERR_FORMAT && !l, "a cubin whose EI_CLASS is flipped is not read");
    buf[e.payload_offset + 4] = saved;

    /* Every entry at once, on threads. */
    fc_kernel_list **lists;
    fc_status *status;
    size_t count;
    fc_options opts;
    fc_options_init(&opts);
    opts.threads = 4;
    ok(fc_object_kernels(&lists, &status, &count, o, &opts) == FC_OK && count == 12, "all twelve images read");
    int same = 1;
    for (size_t i = 0; i < count; i++)
        same &= status[i] == FC_OK && lists[i]->n == 3 && strcmp(lists[i]->items[2].name, "fc_add") == 0 &&
                lists[i]->elf_arch == o->containers[0].entries[i].arch;
    ok(same, "each has the three kernels and its own architecture");
    /* One copy of each name for all twelve images (name_pool.c), which outlives any of the
     * lists: freed one by one, the others still read. */
    int shared = 1;
    for (size_t i = 1; i < count; i++)
        for (size_t k = 0; k < 3; k++)
            shared &= lists[i]->items[k].name == lists[0]->items[k].name &&
                      lists[i]->items[k].demangled == lists[0]->items[k].demangled;
    ok(shared, "the twelve images share one copy of each name");
    for (size_t i = 0; i + 1 < count; i++) {
        fc_kernel_list_free(lists[i]);
        lists[i] = NULL;
    }
    ok(strcmp(lists[count - 1]->items[2].name, "fc_add") == 0, "the last list's names outlive the others");
    fc_object_kernels_free(lists, status, count);
    fc_object_free(o);
    free(buf);

    many_ptx_kernels(3);
    many_ptx_kernels(100000);
    return tap_done();
}
