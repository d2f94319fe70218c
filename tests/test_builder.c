/* test_builder.c - the object builder's rules for the problems it is told of. */
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "fatcheck.h"
#include "tap.h"

int main(void)
{
    fc_builder b;
    if (fc_builder_init(&b, NULL, "lib.so", NULL, NULL) != FC_OK)
        return 1;
    fc_builder_fail(&b, FC_ERR_FORMAT, "section %s runs past the end", ".nv_fatbin");
    is_str(b.obj.error, "lib.so: section .nv_fatbin runs past the end", "the first problem is said");
    fc_builder_fail(&b, FC_ERR_IO, "cannot read");
    is_str(b.obj.error, "lib.so: section .nv_fatbin runs past the end", "a later one is not said over it");
    is_u64(b.obj.status, FC_ERR_FORMAT, "nor does its status replace the first's");
    /* rv20: a hostile ELF's segment limit (FC_ERR_LIMIT) said first, then an allocation that
     * failed: the report is short for want of memory, which the command must say (exit 4). */
    fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
    is_u64(b.obj.status, FC_ERR_NOMEM, "running out of memory later still marks the object");
    is_str(b.obj.error, "lib.so: section .nv_fatbin runs past the end", "with the first problem's words kept");
    fc_builder_reset(&b);
    return tap_done();
}
