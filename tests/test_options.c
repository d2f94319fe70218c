/* test_options.c - fc_options.size: what fc_options_init fills, and options no
 * fc_options_init filled (or a newer header's) refused by every function that takes them. */
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "tap.h"

static int count(void *ctx, const fc_object *o)
{
    (void)o;
    ++*(int *)ctx;
    return 0;
}

/* What the functions that read an object's images answer, with the caller's options and
 * with options no fc_options_init filled. */
typedef struct reads {
    const fc_options *good, *bad;
    size_t entries, kernels_ok, kernels_refused;
    fc_status runtime_good, runtime_bad, runtime_no_out;
} reads;

static int read_images(void *ctx, const fc_object *obj)
{
    reads *r = ctx;
    for (size_t c = 0; c < obj->n_containers; c++)
        for (size_t e = 0; e < obj->containers[c].n_entries; e++) {
            const fc_entry *en = &obj->containers[c].entries[e];
            fc_kernel_list *l = NULL;
            r->entries++;
            r->kernels_ok += fc_entry_kernels(&l, obj, en, r->good) == FC_OK;
            fc_kernel_list_free(l);
            l = NULL;
            r->kernels_refused += fc_entry_kernels(&l, obj, en, r->bad) == FC_ERR_INVALID && !l;
            fc_kernel_list_free(l);
        }
    fc_runtime_need need;
    r->runtime_good = fc_object_runtime(&need, obj, r->good);
    r->runtime_bad = fc_object_runtime(&need, obj, r->bad);
    r->runtime_no_out = fc_object_runtime(NULL, obj, r->good);
    return 0;
}

int main(void)
{
    fc_options o;
    memset(&o, 0xa5, sizeof o);
    fc_options_init(&o);
    is_u64(o.size, sizeof o, "fc_options_init sets the caller's size");
    is_u64(o.max_depth, 64, "and the defaults");

    int objects = 0;
    const char *fatbin = FIXTURES_DIR "/all_archs.fatbin";
    is_u64(fc_scan(fatbin, &o, count, NULL, &objects), FC_OK, "initialised options scan");
    is_u64(objects, 1, "one object");

    fc_options zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    zeroed.max_depth = 64;
    is_u64(fc_scan(fatbin, &zeroed, count, NULL, &objects), FC_ERR_INVALID, "size 0 (not initialised): refused");
    fc_options newer = o;
    newer.size = sizeof newer + 8;
    is_u64(fc_scan(fatbin, &newer, count, NULL, &objects), FC_ERR_INVALID, "a newer header's size: refused");
    is_u64(fc_scan_memory("x", 1, "x", &zeroed, count, NULL, &objects), FC_ERR_INVALID, "fc_scan_memory refuses it");
    is_u64(fc_scan_fd(0, "x", &zeroed, count, NULL, &objects), FC_ERR_INVALID, "fc_scan_fd refuses it");
    fc_object *obj = NULL;
    is_u64(fc_decode_fatbin(&obj, "", 0, 0, &zeroed), FC_ERR_INVALID, "fc_decode_fatbin refuses it");
    ok(!obj, "and gives no object");
    is_u64(fc_scan(fatbin, NULL, count, NULL, &objects), FC_OK, "NULL options: the defaults");
    is_u64(objects, 2, "the object of that scan");

    /* A caller whose fc_options is larger (a newer header) gets the rest zeroed, its own size. */
    unsigned char big[sizeof(fc_options) + 16];
    memset(big, 0xa5, sizeof big);
    fc_options_init_size((fc_options *)(void *)big, sizeof big);
    fc_options head;
    memcpy(&head, big, sizeof head);
    is_u64(head.size, sizeof big, "a larger fc_options keeps its size");
    int zero = 1;
    for (size_t i = sizeof(fc_options); i < sizeof big; i++)
        zero &= big[i] == 0;
    ok(zero, "and its bytes past this library's fields are zeroed");

    fc_judge_options jo;
    fc_judge_options_init(&jo);
    jo.scan = &zeroed;
    fc_judgement *j = NULL;
    fc_object *fat = NULL;
    is_u64(fc_decode_fatbin(&fat, "", 0, 0, &o), FC_OK, "an empty fat binary decodes");
    is_u64(fc_judge(&j, fat, &jo), FC_ERR_INVALID, "fc_judge refuses uninitialised scan options");
    ok(!j, "and gives no judgement");
    fc_object_free(fat);

    /* Before, fc_entry_kernels noticed such options only when an image was compressed (an
     * uncompressed cubin gave FC_ERR_LIMIT, PTX nothing), fc_object_runtime not at all, and
     * fc_object_runtime wrote through a NULL OUT before refusing it. */
    reads r = {.good = &o, .bad = &zeroed};
    is_u64(fc_scan(fatbin, &o, read_images, NULL, &r), FC_OK, "the images' reads ran");
    ok(r.entries >= 10, "over every entry of all_archs.fatbin (%zu)", r.entries);
    is_u64(r.kernels_ok, r.entries, "fc_entry_kernels reads each with initialised options");
    is_u64(r.kernels_refused, r.entries, "and refuses uninitialised ones for each, uncompressed cubins too");
    is_u64(r.runtime_good, FC_OK, "fc_object_runtime with initialised options");
    is_u64(r.runtime_bad, FC_ERR_INVALID, "fc_object_runtime refuses uninitialised ones");
    is_u64(r.runtime_no_out, FC_ERR_INVALID, "and a NULL OUT");
    return tap_done();
}
