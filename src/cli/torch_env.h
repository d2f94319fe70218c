/* torch_env.h - the current Python and PyTorch, for telling stale extension folders. */
#ifndef FC_TORCH_ENV_H
#define FC_TORCH_ENV_H

#include <stdbool.h>

typedef struct torch_env {
    char python[16];  /* "3.12"; "" when unknown */
    int torch_cuda;   /* 13000; 0 for a CPU build of torch; -1 when unknown */
    char source[512]; /* the python3 it came from, or the options that named it */
} torch_env;

/* Fills ENV from the python3 on PATH; false when there is none. */
bool torch_env_detect(torch_env *env);

#endif
