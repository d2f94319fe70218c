/* probe.c - asking the real CUDA driver to load images (--probe), in a child process.
 *
 * The driver is not robust to every container (one of libnccl.so.2's crashed the calling
 * process inside the driver), so loads run in a child that can die without taking fatcheck
 * with it: the parent sends each image through a pipe and reads back the CUresult; if the
 * child dies, that load is reported as a crash and a new child takes the next one.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fatcheck.h"
#include "pipe_io.h"

struct fc_prober {
    pid_t child;
    int to_child, from_child;
};

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_device_get_fn)(int *, int);
typedef int (*cu_ctx_retain_fn)(void **, int);
typedef int (*cu_ctx_set_fn)(void *);
typedef int (*cu_load_fn)(void **, const void *);
typedef int (*cu_unload_fn)(void *);

/* The child: answers {u32 device, u64 size, bytes} with an i32 CUresult, until EOF. */
static void child_main(int in, int out)
{
    /* Errors must show at load time, not at a kernel's first launch; and each answer must
     * come from the image, not from PTX compiled by an earlier run into the JIT cache. */
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    int32_t fail = -2;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    cu_init_fn init = lib ? (cu_init_fn)dlsym(lib, "cuInit") : NULL;
    cu_device_get_fn get = lib ? (cu_device_get_fn)dlsym(lib, "cuDeviceGet") : NULL;
    cu_ctx_retain_fn retain = lib ? (cu_ctx_retain_fn)dlsym(lib, "cuDevicePrimaryCtxRetain") : NULL;
    cu_ctx_set_fn set = lib ? (cu_ctx_set_fn)dlsym(lib, "cuCtxSetCurrent") : NULL;
    cu_load_fn load = lib ? (cu_load_fn)dlsym(lib, "cuModuleLoadData") : NULL;
    cu_unload_fn unload = lib ? (cu_unload_fn)dlsym(lib, "cuModuleUnload") : NULL;
    bool ready = init && get && retain && set && load && unload && init(0) == 0;
    void *ctx[64] = {0};
    for (;;) {
        uint32_t device;
        uint64_t size;
        if (!fc_read_all(in, &device, sizeof device) || !fc_read_all(in, &size, sizeof size))
            _exit(0);
        /* One byte more, zero: cuModuleLoadData reads PTX text up to a NUL, and a PTX file's
         * bytes have none (without it the driver read past them: CUDA_ERROR_INVALID_PTX or
         * success by chance, seen with fixtures/kernels.ptx and tests/oracle's PTX files; PTX kept
         * as text in a program needs it too). */
        char *image = size < (1ull << 32) ? malloc((size_t)size + 1) : NULL;
        if (!image || !fc_read_all(in, image, (size_t)size))
            _exit(1);
        image[size] = '\0';
        int32_t rc = fail;
        if (ready && device < 64) {
            int dev;
            rc = get(&dev, (int)device);
            if (rc == 0 && !ctx[device])
                rc = retain(&ctx[device], dev);
            if (rc == 0)
                rc = set(ctx[device]);
            void *mod = NULL;
            if (rc == 0 && (rc = load(&mod, image)) == 0)
                unload(mod);
        }
        free(image);
        if (!fc_write_all(out, &rc, sizeof rc))
            _exit(1);
    }
}

static fc_status start_child(fc_prober *p)
{
    int down[2], up[2];
    if (pipe(down) != 0)
        return FC_ERR_IO;
    if (pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return FC_ERR_IO;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return FC_ERR_IO;
    }
    if (pid == 0) {
        close(down[1]);
        close(up[0]);
        int in = fc_child_stdio(down[0]);
        int out = fc_child_stdio(up[1]);
        child_main(in, out);
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    p->child = pid;
    p->to_child = down[1];
    p->from_child = up[0];
    return FC_OK;
}

static void stop_child(fc_prober *p)
{
    if (p->child <= 0)
        return;
    close(p->to_child);
    close(p->from_child);
    int status;
    while (waitpid(p->child, &status, 0) < 0 && errno == EINTR)
        ;
    p->child = 0;
}

fc_status fc_prober_open(fc_prober **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return FC_ERR_NOMEM;
    /* A child that died leaves the pipe closed: writes must fail, not kill fatcheck. */
    signal(SIGPIPE, SIG_IGN);
    return FC_OK;
}

fc_status fc_prober_load(int *cu_result, bool *crashed, fc_prober *p, unsigned device, const void *image,
                         size_t size)
{
    *crashed = false;
    *cu_result = -1;
    if (p->child <= 0 && start_child(p) != FC_OK)
        return FC_ERR_IO;
    uint32_t dev = device;
    uint64_t n = size;
    int32_t rc;
    if (!fc_write_all(p->to_child, &dev, sizeof dev) || !fc_write_all(p->to_child, &n, sizeof n) ||
        !fc_write_all(p->to_child, image, size) || !fc_read_all(p->from_child, &rc, sizeof rc)) {
        stop_child(p);
        *crashed = true;
        return FC_OK;
    }
    *cu_result = rc;
    return FC_OK;
}

void fc_prober_close(fc_prober *p)
{
    if (!p)
        return;
    stop_child(p);
    free(p);
}
