/* load.c - asks the real CUDA driver what it does with each image named on the command line:
 * cuModuleLoadDataEx (what the runtime and --probe do), the JIT's error log, how many
 * functions the loaded module has and how many of them fail to load (cuFuncLoad: with lazy
 * loading, the default since CUDA 12.2, a function is loaded at its first use), and whether the
 * driver's own linker (cuLink*) accepts the image alone. Each image is handled in a child
 * process, so a driver crash is an answer. CUDA_MODULE_LOADING is passed on as it is set.
 * Prints one JSON line per image. Built on a machine with CUDA's cuda.h, run where the GPU is:
 *   cc -O2 -I/usr/local/cuda/include -o load load.c -ldl
 *   ./load [-d DEVICE] FILE...
 */
#include <cuda.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct answer {
    int load, functions, link, link_complete;
    int functions_failed, first_function_error;
    char error_log[2048];
    char link_log[1024];
} answer;

static void *sym(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "load: libcuda.so.1 has no %s\n", name);
        _exit(3);
    }
    return p;
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    buf[n] = '\0'; /* PTX text must be NUL-terminated for the driver */
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static CUjitInputType input_type(const unsigned char *p, size_t n)
{
    if (n >= 4 && p[0] == 0x50 && p[1] == 0xed && p[2] == 0x55 && p[3] == 0xba)
        return CU_JIT_INPUT_FATBINARY;
    if (n >= 4 && memcmp(p, "\177ELF", 4) == 0)
        return CU_JIT_INPUT_CUBIN;
    return CU_JIT_INPUT_PTX;
}

static void child(int device, const char *path, int fd)
{
    answer a;
    memset(&a, 0, sizeof a);
    a.load = a.link = a.link_complete = -2;
    a.functions = -1;
    size_t size = 0;
    unsigned char *img = read_file(path, &size);
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!img || !lib)
        _exit(2);
    CUresult (*init)(unsigned) = sym(lib, "cuInit");
    CUresult (*dev_get)(CUdevice *, int) = sym(lib, "cuDeviceGet");
    CUresult (*retain)(CUcontext *, CUdevice) = sym(lib, "cuDevicePrimaryCtxRetain");
    CUresult (*set_current)(CUcontext) = sym(lib, "cuCtxSetCurrent");
    CUresult (*load_ex)(CUmodule *, const void *, unsigned, CUjit_option *, void **) =
        sym(lib, "cuModuleLoadDataEx");
    CUresult (*count)(unsigned *, CUmodule) = (void *)dlsym(lib, "cuModuleGetFunctionCount");
    CUresult (*link_create)(unsigned, CUjit_option *, void **, CUlinkState *) = sym(lib, "cuLinkCreate_v2");
    CUresult (*link_add)(CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned, CUjit_option *,
                         void **) = sym(lib, "cuLinkAddData_v2");
    CUresult (*link_complete)(CUlinkState, void **, size_t *) = sym(lib, "cuLinkComplete");
    CUdevice dev;
    CUcontext ctx;
    if (init(0) != CUDA_SUCCESS || dev_get(&dev, device) != CUDA_SUCCESS || retain(&ctx, dev) != CUDA_SUCCESS ||
        set_current(ctx) != CUDA_SUCCESS)
        _exit(4);
    CUjit_option o[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *v[2] = {a.error_log, (void *)(sizeof a.error_log - 1)};
    CUmodule m;
    a.load = load_ex(&m, img, 2, o, v);
    unsigned n = 0;
    CUresult (*enumerate)(CUfunction *, unsigned, CUmodule) = (void *)dlsym(lib, "cuModuleEnumerateFunctions");
    CUresult (*func_load)(CUfunction) = (void *)dlsym(lib, "cuFuncLoad");
    a.first_function_error = -1;
    if (a.load == CUDA_SUCCESS && count && count(&n, m) == CUDA_SUCCESS) {
        a.functions = (int)n;
        CUfunction *fs = calloc(n ? n : 1, sizeof *fs);
        if (fs && enumerate && func_load && enumerate(fs, n, m) == CUDA_SUCCESS)
            for (unsigned k = 0; k < n; k++) {
                CUresult r = func_load(fs[k]);
                if (r != CUDA_SUCCESS) {
                    a.functions_failed++;
                    if (a.first_function_error < 0)
                        a.first_function_error = r;
                }
            }
        free(fs);
    }
    CUlinkState ls;
    CUjit_option lo[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *lv[2] = {a.link_log, (void *)(sizeof a.link_log - 1)};
    if (link_create(2, lo, lv, &ls) == CUDA_SUCCESS) {
        a.link = link_add(ls, input_type(img, size), img, size, "image", 0, NULL, NULL);
        if (a.link == CUDA_SUCCESS) {
            void *cubin;
            size_t cubin_size;
            a.link_complete = link_complete(ls, &cubin, &cubin_size);
        }
    }
    (void)!write(fd, &a, sizeof a);
    _exit(0);
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

int main(int argc, char **argv)
{
    int device = 0, first = 1;
    if (argc > 2 && strcmp(argv[1], "-d") == 0) {
        device = atoi(argv[2]);
        first = 3;
    }
    for (int i = first; i < argc; i++) {
        int p[2];
        if (pipe(p) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            alarm(120);
            child(device, argv[i], p[1]);
        }
        close(p[1]);
        answer a;
        ssize_t got = read(p[0], &a, sizeof a);
        close(p[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        printf("{\"image\": ");
        json_string(argv[i]);
        if (got != (ssize_t)sizeof a) {
            if (WIFSIGNALED(status))
                printf(", \"crash\": %d}\n", WTERMSIG(status));
            else
                printf(", \"child_exit\": %d}\n", WEXITSTATUS(status));
            continue;
        }
        a.error_log[sizeof a.error_log - 1] = a.link_log[sizeof a.link_log - 1] = '\0';
        printf(", \"load\": %d, \"functions\": %d, \"functions_failed\": %d, \"function_error\": %d, "
               "\"link_add\": %d, \"link_complete\": %d, \"error_log\": ",
               a.load, a.functions, a.functions_failed, a.first_function_error, a.link, a.link_complete);
        json_string(a.error_log);
        printf(", \"link_log\": ");
        json_string(a.link_log);
        printf("}\n");
        fflush(stdout);
    }
    return 0;
}
