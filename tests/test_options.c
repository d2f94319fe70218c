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
    return tap_done();
}
