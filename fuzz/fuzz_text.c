/* fuzz_text.c - what people and clusters type: GPU names, arch lists, driver versions, and
 * fleet inventories (nvidia-smi CSV, kubectl JSON). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    char err[512];
    fc_target t;
    fc_arch_list l;
    int v;
    fc_target_parse(&t, s, err, sizeof err);
    fc_arch_list_parse(&l, s, err, sizeof err);
    fc_driver_parse(&v, s, err, sizeof err);
    static fc_fleet_group groups[64];
    size_t n;
    fc_fleet_parse(groups, &n, 64, (const char *)data, size, err, sizeof err);
    free(s);
    return 0;
}
