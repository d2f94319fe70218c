/* detect.c - what asking about the local GPUs costs, one way per fresh process:
 *   detect nvml-here     NVML loaded and asked in this process (fc_nvml_list), no child
 *   detect nvml          the library's way: NVML in a child (fc_detect_gpus_ext, FC_DETECT_NVML)
 *   detect driver        the Driver API in a child (FC_DETECT_DRIVER: cuInit)
 *   detect auto          the default (NVML, the Driver API where NVML cannot answer)
 *   detect nvml-steps    NVML's calls one by one in this process, each timed
 *   detect nvml-noattach the same after nvmlInitWithFlags(NVML_INIT_FLAG_NO_ATTACH)
 *   detect nvml-threads  the same with each GPU's calls on a thread of its own
 *   detect cuda-dlopen   dlopen("libcuda.so.1") alone
 * Each prints how many GPUs it found (and which), and its own time in ms; run it under bench/measure for
 * the whole process, e.g. `measure 21 build/bench/detect nvml`. The difference between
 * nvml-here and nvml is the price of the child (fork, pipe, shared page, reaping). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stdint.h>

#include "detect.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* NVML's calls, as nvml.c makes them, timed one by one. */
typedef int (*fn_void)(void);
typedef int (*fn_flags)(unsigned);
typedef int (*fn_int)(int *);
typedef int (*fn_uint)(unsigned *);
typedef int (*fn_handle)(unsigned, void **);
typedef int (*fn_str)(void *, char *, unsigned);
typedef int (*fn_sys_str)(char *, unsigned);
typedef int (*fn_cc)(void *, int *, int *);
typedef int (*fn_pci)(void *, void *);
typedef int (*fn_mig)(void *, unsigned *, unsigned *);

static void *nvml;
static double t_mark;

/* A call of NVML's entry point NAME, or -999 when the library lacks it. */
#define CALL(type, name, ...) (dlsym(nvml, name) ? ((type)dlsym(nvml, name))(__VA_ARGS__) : -999)

static void step(const char *what, int rc)
{
    double t = now_ms();
    printf("  %-36s %7.2f ms (rc %d)\n", what, t - t_mark, rc);
    t_mark = t;
}

/* One GPU's queries (what nvml.c asks), for the serial and threaded variants. */
static void *one_gpu(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    void *dev = NULL;
    char buf[96];
    int major, minor;
    unsigned char pci[64];
    unsigned cur, pend;
    CALL(fn_handle, "nvmlDeviceGetHandleByIndex_v2", i, &dev);
    CALL(fn_str, "nvmlDeviceGetUUID", dev, buf, sizeof buf);
    CALL(fn_cc, "nvmlDeviceGetCudaComputeCapability", dev, &major, &minor);
    CALL(fn_str, "nvmlDeviceGetName", dev, buf, sizeof buf);
    CALL(fn_pci, "nvmlDeviceGetPciInfo_v3", dev, pci);
    CALL(fn_mig, "nvmlDeviceGetMigMode", dev, &cur, &pend);
    return NULL;
}

static int nvml_steps(const char *mode)
{
    t_mark = now_ms();
    double start = t_mark;
    nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    step("dlopen libnvidia-ml.so.1", !nvml);
    if (!nvml)
        return 1;
    if (strcmp(mode, "nvml-noattach") == 0)
        step("nvmlInitWithFlags(NO_ATTACH)", CALL(fn_flags, "nvmlInitWithFlags", 2));
    else
        step("nvmlInit_v2", CALL(fn_void, "nvmlInit_v2", ));
    int cuda = 0;
    step("nvmlSystemGetCudaDriverVersion_v2", CALL(fn_int, "nvmlSystemGetCudaDriverVersion_v2", &cuda));
    char release[80] = "";
    step("nvmlSystemGetDriverVersion", CALL(fn_sys_str, "nvmlSystemGetDriverVersion", release, sizeof release));
    unsigned count = 0;
    step("nvmlDeviceGetCount_v2", CALL(fn_uint, "nvmlDeviceGetCount_v2", &count));
    if (strcmp(mode, "nvml-threads") == 0) {
        pthread_t th[64];
        for (unsigned i = 0; i < count && i < 64; i++)
            pthread_create(&th[i], NULL, one_gpu, (void *)(uintptr_t)i);
        for (unsigned i = 0; i < count && i < 64; i++)
            pthread_join(th[i], NULL);
        step("per-GPU queries, a thread each", 0);
    } else {
        for (unsigned i = 0; i < count; i++) {
            void *dev = NULL;
            char buf[96];
            int major, minor;
            unsigned char pci[64];
            unsigned cur, pend;
            step("nvmlDeviceGetHandleByIndex_v2", CALL(fn_handle, "nvmlDeviceGetHandleByIndex_v2", i, &dev));
            step("  nvmlDeviceGetUUID", CALL(fn_str, "nvmlDeviceGetUUID", dev, buf, sizeof buf));
            step("  nvmlDeviceGetCudaComputeCapability",
                 CALL(fn_cc, "nvmlDeviceGetCudaComputeCapability", dev, &major, &minor));
            step("  nvmlDeviceGetName", CALL(fn_str, "nvmlDeviceGetName", dev, buf, sizeof buf));
            step("  nvmlDeviceGetPciInfo_v3", CALL(fn_pci, "nvmlDeviceGetPciInfo_v3", dev, pci));
            step("  nvmlDeviceGetMigMode", CALL(fn_mig, "nvmlDeviceGetMigMode", dev, &cur, &pend));
        }
    }
    printf("%s: %u GPUs, CUDA %d, driver %s, in %.2f ms\n", mode, count, cuda, release, now_ms() - start);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: detect nvml-here|nvml|driver|auto|nvml-steps|nvml-noattach|nvml-threads|cuda-dlopen\n", stderr);
        return 2;
    }
    if (strncmp(argv[1], "nvml-steps", 10) == 0 || strcmp(argv[1], "nvml-noattach") == 0 ||
        strcmp(argv[1], "nvml-threads") == 0)
        return nvml_steps(argv[1]);
    if (strcmp(argv[1], "cuda-dlopen") == 0) {
        double t = now_ms();
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        printf("cuda-dlopen: %s in %.2f ms\n", lib ? "loaded" : "not found", now_ms() - t);
        return !lib;
    }
    char err[320];
    double t = now_ms();
    size_t n = 0;
    fc_status st;
    static fc_target targets[64];
    if (strcmp(argv[1], "nvml-here") == 0) {
        static fc_gpu_list list;
        bool no_cuda;
        st = fc_nvml_list(&list, &no_cuda, err, sizeof err);
        n = list.n;
    } else {
        fc_detect_options o;
        fc_detect_options_init(&o);
        o.method = strcmp(argv[1], "nvml") == 0 ? FC_DETECT_NVML : strcmp(argv[1], "driver") == 0 ? FC_DETECT_DRIVER
                                                                                                 : FC_DETECT_AUTO;
        st = fc_detect_gpus_ext(targets, &n, 64, &o, NULL, err, sizeof err);
    }
    double ms = now_ms() - t;
    printf("%s: %zu GPUs in %.2f ms%s%s\n", argv[1], n, ms, st == FC_OK ? "" : ": ", st == FC_OK ? "" : err);
    for (size_t i = 0; i < n && strcmp(argv[1], "nvml-here") != 0; i++)
        printf("  %s: sm_%u %s %s\n", targets[i].source, targets[i].cc, targets[i].name, targets[i].uuid);
    return st == FC_OK ? 0 : 1;
}
