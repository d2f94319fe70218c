/* fuzz_fatbin.c - container and entry decoding from arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "fatcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fc_options opts;
    fc_options_init(&opts);
    opts.max_entries = 4096; /* keep each run small; limits are part of what is tested */
    fc_object *o = NULL;
    fc_decode_fatbin(&o, data, size, 0, &opts);
    if (o) {
        char buf[64];
        for (size_t c = 0; c < o->n_containers; c++)
            for (size_t e = 0; e < o->containers[c].n_entries; e++) {
                fc_entry_arch_name(buf, sizeof buf, &o->containers[c].entries[e]);
                fc_entry_cuobjdump_arch(buf, sizeof buf, &o->containers[c].entries[e]);
            }
    }
    fc_object_free(o);
    return 0;
}
