/* detect.h - what GPU detection's files share: the GPUs NVML lists (nvml.c), and the CUDA
 * runtime's rules for which of them a program sees and how it numbers them
 * (visible_devices.c), used by the detecting child (gpu.c). */
#ifndef FC_DETECT_H
#define FC_DETECT_H

#include "fatcheck.h"

#define FC_MAX_GPUS 64
/* A GPU holds at most 7 MIG compute instances (A100, H100, H200, B200). */
#define FC_MAX_MIG 8

typedef struct fc_mig_device {
    char uuid[96];  /* "MIG-f5dd4a2c-..." */
    char name[96];  /* "NVIDIA H100 80GB HBM3 MIG 1g.10gb" */
} fc_mig_device;

/* One physical GPU as NVML describes it. */
typedef struct fc_gpu {
    char uuid[96];               /* "GPU-33ea3011-d795-9321-b26f-fa72c6fe6db3" */
    char name[96];
    unsigned cc;                 /* compute capability, 90 for 9.0 */
    unsigned domain, bus, device; /* PCI location: the order CUDA_DEVICE_ORDER=PCI_BUS_ID uses */
    bool mig_enabled;            /* MIG mode is on now (not merely pending) */
    size_t n_mig;
    fc_mig_device mig[FC_MAX_MIG];
} fc_gpu;

typedef struct fc_gpu_list {
    fc_gpu gpus[FC_MAX_GPUS];
    size_t n;                    /* in NVML's index order */
    int driver_cuda;             /* nvmlSystemGetCudaDriverVersion_v2: 13000 for 13.0 */
} fc_gpu_list;

/* Lists the GPUs through NVML (libnvidia-ml.so.1, loaded with dlopen). FC_ERR_UNSUPPORTED
 * with ERR set when NVML is missing or fails; *NO_CUDA is set when NVML works but
 * libcuda.so.1 cannot be loaded (a container without the "compute" driver capability),
 * an answer the Driver API cannot improve on. Run in the detecting child only. */
fc_status fc_nvml_list(fc_gpu_list *out, bool *no_cuda, char *err, size_t err_size);

/* The devices a CUDA program sees, in its numbering: GPU (index into the list) and MIG
 * device (-1 for the whole GPU). */
typedef struct fc_visible_pick {
    unsigned gpu;
    int mig;
} fc_visible_pick;

typedef struct fc_visible {
    fc_visible_pick picks[FC_MAX_GPUS];
    size_t n;
    /* Set when fatcheck cannot reproduce the runtime's answer from NVML's list (GPUs of
     * different models under FASTEST_FIRST, MIG, an entry of a form whose handling is not
     * documented): only the CUDA driver itself can say. The picks are then meaningless. */
    bool ask_driver;
    /* Why the driver must be asked, or what CUDA_VISIBLE_DEVICES left out; "" if nothing. */
    char note[256];
} fc_visible;

/* Applies CUDA_VISIBLE_DEVICES (VISIBLE; NULL when unset) and CUDA_DEVICE_ORDER (ORDER; NULL
 * when unset) to LIST as the CUDA runtime does (docs/detection.md). */
void fc_visible_devices(const fc_gpu_list *list, const char *visible, const char *order, fc_visible *out);

#endif
