/* detect.c - what asking about the local GPUs costs, one way per fresh process:
 *   detect nvml-here     NVML loaded and asked in this process (fc_nvml_list), no child
 *   detect nvml          the library's way: NVML in a child (fc_detect_gpus_ext, FC_DETECT_NVML)
 *   detect driver        the Driver API in a child (FC_DETECT_DRIVER: cuInit)
 *   detect auto          the default (NVML, the Driver API where NVML cannot answer)
 * Each prints how many GPUs it found and its own time in ms; run it under bench/measure for
 * the whole process, e.g. `measure 21 build/bench/detect nvml`. The difference between
 * nvml-here and nvml is the price of the child (fork, pipe, shared page, reaping). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "detect.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: detect nvml-here|nvml|driver|auto\n", stderr);
        return 2;
    }
    char err[320];
    double t = now_ms();
    size_t n = 0;
    fc_status st;
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
        static fc_target targets[64];
        st = fc_detect_gpus_ext(targets, 64, &n, &o, NULL, err, sizeof err);
    }
    printf("%s: %zu GPUs in %.2f ms%s%s\n", argv[1], n, now_ms() - t, st == FC_OK ? "" : ": ", st == FC_OK ? "" : err);
    return st == FC_OK ? 0 : 1;
}
