/* test_visible.c - CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER applied to NVML's list
 * (visible_devices.c): the runtime's documented rules, and every case where fatcheck must
 * leave the answer to the driver instead of guessing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "tap.h"

static fc_gpu_list list;

static void add(const char *name, unsigned cc, const char *uuid, unsigned domain, unsigned bus)
{
    fc_gpu *g = &list.gpus[list.n++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    snprintf(g->uuid, sizeof g->uuid, "%s", uuid);
    g->cc = cc;
    g->domain = domain;
    g->bus = bus;
}

/* The picks as "gpu[/mig] gpu ...", or "driver" when the driver must be asked. */
static const char *picks(const char *visible, const char *order, fc_visible *v)
{
    static char buf[512];
    fc_visible_devices(&list, visible, order, v);
    if (v->ask_driver)
        return "driver";
    buf[0] = '\0';
    for (size_t i = 0; i < v->n; i++) {
        size_t len = strlen(buf);
        if (v->picks[i].mig >= 0)
            snprintf(buf + len, sizeof buf - len, "%s%u/%d", i ? " " : "", v->picks[i].gpu, v->picks[i].mig);
        else
            snprintf(buf + len, sizeof buf - len, "%s%u", i ? " " : "", v->picks[i].gpu);
    }
    return buf;
}

int main(void)
{
    fc_visible v;

    /* Two H200s, NVML listing the one on the higher bus first. */
    add("NVIDIA H200", 90, "GPU-6faf1c9a-1e77-926f-9b99-f7d31485d4df", 0, 0x42);
    add("NVIDIA H200", 90, "GPU-33ea3011-d795-9321-b26f-fa72c6fe6db3", 0, 0x18);
    is_str(picks(NULL, NULL, &v), "1 0", "unset: every GPU, numbered in PCI order");
    is_str(v.note, "", "no note");
    is_str(picks(NULL, "PCI_BUS_ID", &v), "1 0", "PCI_BUS_ID: the same");
    is_str(picks(NULL, "FASTEST_FIRST", &v), "1 0", "FASTEST_FIRST on one model: the same");
    is_str(picks("0", NULL, &v), "1", "index 0 is the GPU on the lower bus");
    is_str(picks("1,0", NULL, &v), "0 1", "indices in the order given");
    is_str(picks("", NULL, &v), "", "empty: no GPU");
    is_str(v.note, "CUDA_VISIBLE_DEVICES is set and empty: CUDA programs see no GPU", "said");
    is_str(picks("GPU-6faf", NULL, &v), "0", "a UUID prefix");
    is_str(picks("GPU-6faf1c9a-1e77-926f-9b99-f7d31485d4df", NULL, &v), "0", "a whole UUID");
    is_str(picks("GPU-", NULL, &v), "", "a prefix of both names neither");
    is_str(v.note, "CUDA_VISIBLE_DEVICES starts with 'GPU-' (the UUIDs of several GPUs start so): CUDA programs see "
           "no GPU", "said");
    is_str(picks("0,nonsense,1", NULL, &v), "1", "the list ends at the first invalid entry");
    is_str(v.note, "CUDA_VISIBLE_DEVICES stops at 'nonsense' (not a GPU): CUDA programs see only the devices before it",
           "said");
    is_str(picks("0,2,-1,1", NULL, &v), "1", "the guide's example, on two GPUs: 2 ends it");
    is_str(picks("0,-1,1", NULL, &v), "1", "-1 ends it");
    is_str(picks("1,GPU-6faf", NULL, &v), "driver", "a GPU named twice, by index and UUID");
    is_str(picks("0,0", NULL, &v), "driver", "a GPU named twice by index");
    is_str(v.note, "CUDA_VISIBLE_DEVICES names a device twice ('0')", "said");
    is_str(picks("MIG-5c1e0cbd-7d5c-5c21-a5c5-5d5f3e5e5e5e", NULL, &v), "", "a MIG UUID with no MIG on the machine");
    is_str(picks("GPU-6FAF", NULL, &v), "driver", "a UUID that matches only without case");
    { /* forms the guide does not settle */
        static const char *open[] = {" 1", "1 ", "01", "+1", "1x", "0x1", "gpu-6faf", "Mig-x", "0,,1", ",0", "0,", "%"};
        for (size_t i = 0; i < sizeof open / sizeof *open; i++)
            is_str(picks(open[i], NULL, &v), "driver", "'%s' is the driver's to read", open[i]);
    }
    char lng[300];
    memset(lng, '7', sizeof lng - 1);
    lng[sizeof lng - 1] = '\0';
    is_str(picks(lng, NULL, &v), "driver", "an entry too long to hold");
    is_str(picks(NULL, "SLOWEST_FIRST", &v), "driver", "an order the guide does not name");
    is_str(picks("0,\x1b[31m", NULL, &v), "driver", "an odd entry");
    ok(strchr(v.note, '\x1b') == NULL, "the note does not carry the escape byte");

    /* Two models: fastest first is the runtime's own heuristic. */
    list.n = 0;
    add("NVIDIA GeForce RTX 3060", 86, "GPU-aaaa0000-0000-0000-0000-000000000000", 0, 0x01);
    add("NVIDIA GeForce RTX 4090", 89, "GPU-bbbb0000-0000-0000-0000-000000000000", 0, 0x02);
    is_str(picks(NULL, NULL, &v), "driver", "unset: the driver numbers them");
    ok(strstr(v.note, "different models") != NULL, "and says why: %s", v.note);
    is_str(picks("1", NULL, &v), "driver", "an index: the driver");
    is_str(picks("1", "FASTEST_FIRST", &v), "driver", "an index under FASTEST_FIRST: the driver");
    is_str(picks("1", "PCI_BUS_ID", &v), "1", "an index under PCI_BUS_ID: by bus");
    is_str(picks(NULL, "PCI_BUS_ID", &v), "0 1", "all, by bus");
    is_str(picks("GPU-bbbb,GPU-aaaa", NULL, &v), "1 0", "UUIDs need no order");

    /* PCI order is domain, then bus, then device. */
    list.n = 0;
    add("NVIDIA H100", 90, "GPU-1", 1, 0x00);
    add("NVIDIA H100", 90, "GPU-2", 0, 0xff);
    add("NVIDIA H100", 90, "GPU-3", 0, 0xff);
    list.gpus[2].device = 0;
    list.gpus[1].device = 1;
    is_str(picks(NULL, NULL, &v), "2 1 0", "domain, bus, device");

    /* MIG: one A100 in MIG mode with two MIG devices, one not. */
    list.n = 0;
    add("NVIDIA A100-SXM4-80GB", 80, "GPU-a", 0, 1);
    add("NVIDIA A100-SXM4-80GB", 80, "GPU-b", 0, 2);
    list.gpus[0].mig_enabled = true;
    list.gpus[0].n_mig = 2;
    snprintf(list.gpus[0].mig[0].uuid, sizeof list.gpus[0].mig[0].uuid, "MIG-1111");
    snprintf(list.gpus[0].mig[1].uuid, sizeof list.gpus[0].mig[1].uuid, "MIG-2222");
    is_str(picks("MIG-2222", NULL, &v), "0/1", "a MIG device by its UUID");
    is_str(picks(NULL, NULL, &v), "driver", "unset, with a GPU in MIG mode");
    is_str(picks("1", NULL, &v), "driver", "an index, with a GPU in MIG mode");
    is_str(picks("GPU-a", NULL, &v), "driver", "a GPU in MIG mode by UUID");
    is_str(picks("GPU-b", NULL, &v), "1", "the other GPU by UUID");
    is_str(picks("MIG-1111,MIG-2222", NULL, &v), "driver", "two MIG devices");
    is_str(picks("MIG-1111,GPU-b", NULL, &v), "driver", "a MIG device beside a GPU");
    is_str(picks("MIG-11", NULL, &v), "driver", "a MIG prefix");
    is_str(picks("MIG-GPU-a/1/0", NULL, &v), "driver", "the older MIG-GPU-<uuid>/<gi>/<ci> form");

    /* As many GPUs as fatcheck holds. */
    list.n = 0;
    char visible[FC_MAX_GPUS * 4] = "";
    for (unsigned i = 0; i < FC_MAX_GPUS; i++) {
        char uuid[32];
        snprintf(uuid, sizeof uuid, "GPU-%04u", i);
        add("NVIDIA H200", 90, uuid, 0, i);
        snprintf(visible + strlen(visible), sizeof visible - strlen(visible), "%s%u", i ? "," : "",
                 FC_MAX_GPUS - 1 - i);
    }
    picks(visible, NULL, &v);
    ok(v.n == FC_MAX_GPUS && v.picks[0].gpu == FC_MAX_GPUS - 1 && v.picks[FC_MAX_GPUS - 1].gpu == 0,
       "%d GPUs, reversed", FC_MAX_GPUS);
    return tap_done();
}
