/* kept_check.c - LIB FUNC...: loads LIB, calls each FUNC(float *x, int n), a function of LIB
 * that launches a kernel through the CUDA runtime, and prints what the runtime said of the
 * launch and of the synchronisation after it; then loads LIB's kept fat binary (fc_kept(),
 * scripts/make-rdc-runtimes.sh) with cuModuleLoadData and launches its fc_tu_b_square.
 * The runtime asked is LIB's own (its fc_last_error and fc_sync) where it has them: a library
 * built with the static runtime, or against another release's, has its own instance, whose
 * errors the caller's cudaGetLastError never sees. Prints "LIB FUNC launch=N sync=N" and
 * "LIB kept load=N get=N launch=N" (CUresult and cudaError_t numbers).
 * Built on dev: gcc -o kept_check bench/kept_check.c -I/usr/local/cuda/include
 *   -L/usr/local/cuda/lib64 -lcudart -L/usr/local/cuda/lib64/stubs -lcuda -ldl */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>

static int own_last_error(void) { return (int)cudaGetLastError(); }
static int own_sync(void) { return (int)cudaDeviceSynchronize(); }

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: kept_check LIB [FUNC]...\n", stderr);
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("%s dlopen: %s\n", argv[1], dlerror());
        return 1;
    }
    int (*last_error)(void) = (int (*)(void))dlsym(h, "fc_last_error");
    int (*sync)(void) = (int (*)(void))dlsym(h, "fc_sync");
    const char *whose = last_error && sync ? "its own" : "the caller's";
    if (!last_error || !sync)
        last_error = own_last_error, sync = own_sync;
    float *x = 0;
    int n = 1024;
    if (cudaMalloc((void **)&x, n * sizeof *x) != cudaSuccess) {
        printf("%s cudaMalloc failed\n", argv[1]);
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        void (*f)(float *, int) = (void (*)(float *, int))dlsym(h, argv[i]);
        if (!f) {
            printf("%s %s: no such symbol\n", argv[1], argv[i]);
            continue;
        }
        f(x, n);
        int l = last_error(), s = sync();
        printf("%s %s launch=%d sync=%d (%s runtime)\n", argv[1], argv[i], l, s, whose);
    }
    const void *(*kept)(void) = (const void *(*)(void))dlsym(h, "fc_kept");
    if (kept) {
        CUmodule m;
        CUfunction fn;
        CUresult r = cuModuleLoadData(&m, kept()), g = r ? r : cuModuleGetFunction(&fn, m, "fc_tu_b_square"), q = g;
        if (!g) {
            void *args[] = {&x, &n};
            q = cuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, 0, args, 0);
            if (!q)
                q = cuCtxSynchronize();
        }
        printf("%s kept load=%d get=%d launch=%d\n", argv[1], (int)r, (int)g, (int)q);
    }
    return 0;
}
