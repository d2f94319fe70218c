/* fatcheck/gpus.h - the local GPUs, as a CUDA program started now would see them, and
 * asking their driver to load images (--probe). */
#ifndef FATCHECK_GPUS_H
#define FATCHECK_GPUS_H

#include "match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The GPUs a CUDA program started now would see, with the CUDA version their driver
 * supports: CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER are applied as the CUDA runtime
 * applies them (docs/detection.md).
 *
 * Detection forks: the driver's libraries are loaded and asked in another process, so that
 * a crash, a hang or stray output of theirs stays there. That process is a grandchild: the
 * child that forks it exits at once and is reaped here, and the grandchild, reparented to
 * init (or to the caller if it is a subreaper), is never waited for, so that the driver's
 * teardown at its exit costs the caller nothing. Its standard input and output are
 * /dev/null (its standard error is the caller's); if it has not answered when the time
 * limit passes it is killed (SIGKILL). Before forking, every stdio
 * stream is flushed (fflush(NULL)), so that nothing buffered is written twice; nothing else
 * process-wide is changed (no signal handler, no environment). Call it from a
 * single-threaded program, or before starting threads: a child forked beside other threads
 * may deadlock in the loader (the time limit then ends it). */

typedef enum fc_detect_method {
    FC_DETECT_AUTO = 0, /* NVML, and the Driver API where NVML cannot answer exactly as the
                           runtime would (see docs/detection.md) */
    FC_DETECT_NVML,     /* NVML (libnvidia-ml.so.1) only */
    FC_DETECT_DRIVER,   /* the CUDA Driver API (libcuda.so.1, cuInit) only */
} fc_detect_method;

#define FC_DETECT_TIMEOUT_MS 5000u

typedef struct fc_detect_options {
    fc_detect_method method;
    unsigned timeout_ms;  /* how long the child may take; 0 means FC_DETECT_TIMEOUT_MS */
} fc_detect_options;

/* Fills *O with the defaults: FC_DETECT_AUTO, FC_DETECT_TIMEOUT_MS. */
FC_API void fc_detect_options_init(fc_detect_options *o);

typedef struct fc_detect_info {
    fc_detect_method answered_by; /* FC_DETECT_NVML or FC_DETECT_DRIVER; FC_DETECT_AUTO when
                                     no answer came (a timeout, a crash) */
    bool timed_out;
    char note[320];               /* what CUDA_VISIBLE_DEVICES left out ("... stops at 'x' ..."),
                                     as NVML's answer found it; or "" */
    char driver_reason[320];      /* why the Driver API answered instead of NVML, or "" */
    bool no_answer;               /* nothing came back: the asking process ran out of time or
                                     died (a driver that hangs or crashes); not "no GPU" */
    unsigned not_judged;          /* GPUs the answer named whose compute capability could not be
                                     read: left out of the targets, said in note */
} fc_detect_info;

/* Fills up to MAX targets with the local GPUs, in the runtime's numbering ("GPU 0" is device
 * 0), and returns how many in *N. Without a driver, a GPU, or an answer in time, or when the
 * process that asks died, returns FC_ERR_UNSUPPORTED and says why in ERR; FC_ERR_IO (ERR set)
 * when that process could not be started (pipe, fork), FC_ERR_NOMEM (ERR set) when the page
 * it answers in could not be mapped. OPTS may be NULL (the defaults), INFO NULL. */
FC_API fc_status fc_detect_gpus_ext(fc_target *out, size_t *n, size_t max, const fc_detect_options *opts,
                                    fc_detect_info *info, char *err, size_t err_size);
/* The same with the default options. */
FC_API fc_status fc_detect_gpus(fc_target *out, size_t *n, size_t max, char *err, size_t err_size);

/* fc_detect_gpus_ext in two steps, so that the caller can work while the driver answers (it
 * is the two in a row). fc_detect_start forks the asking process (under the same conditions:
 * before starting threads) and returns at once with *OUT set, or NULL with the status and
 * ERR of fc_detect_gpus_ext's own failures (FC_ERR_IO, FC_ERR_NOMEM). fc_detect_finish
 * waits for the answer until the time limit, counted from fc_detect_start (an answer already
 * given counts however late it is asked for), answers as fc_detect_gpus_ext does, and frees
 * D; it must be called once for every detection started, from any thread. */
typedef struct fc_detection fc_detection;
FC_API fc_status fc_detect_start(fc_detection **out, const fc_detect_options *opts, char *err, size_t err_size);
FC_API fc_status fc_detect_finish(fc_detection *d, fc_target *out, size_t *n, size_t max, fc_detect_info *info,
                                  char *err, size_t err_size);

/* Asking the real driver (--probe): each image is loaded with cuModuleLoadData in a child
 * process, so that a driver crash is a finding, not the end of fatcheck. That child is forked
 * by the first fc_prober_load (every stdio stream flushed first; as for detection, call it
 * before starting threads), and again after it died; fc_prober_close waits for it. */
typedef struct fc_prober fc_prober;
/* FC_ERR_NOMEM. Changes the process's signal dispositions: SIGPIPE is ignored from then on,
 * process-wide, and left so (signal(SIGPIPE, SIG_IGN)), so that a child that died leaves a
 * write to its pipe failing with EPIPE rather than killing the caller; a write to any closed
 * pipe or socket in the program then fails the same way. */
FC_API fc_status fc_prober_open(fc_prober **out);
/* Loads IMAGE on device DEVICE. *CU_RESULT is the driver's CUresult (-2: no usable driver in
 * the child). FC_ERR_IO when no child could be started; else FC_OK, with *CRASHED set (and
 * *CU_RESULT -1) when the child died during the load or its pipe failed. */
FC_API fc_status fc_prober_load(int *cu_result, bool *crashed, fc_prober *p, unsigned device,
                                const void *image, size_t size);
FC_API void fc_prober_close(fc_prober *p); /* accepts NULL */

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_GPUS_H */
