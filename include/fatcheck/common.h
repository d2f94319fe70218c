/* fatcheck/common.h - what every part of the library shares: the export macro, the version,
 * the status codes and the stop value of callbacks. */
#ifndef FATCHECK_COMMON_H
#define FATCHECK_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FATCHECK_BUILDING) && defined(__GNUC__)
#define FC_API __attribute__((visibility("default")))
#else
#define FC_API
#endif

#define FC_VERSION_STRING "0.1.0"

/* Conventions (since the headers were split, issue 16):
 *  - results come first: the out-parameters (an array, then its count), then the inputs, and
 *    a message buffer (err, err_size; why, why_size) last: fc_decompress(&out, &out_size, m,
 *    src, ...), fc_target_parse(&t, "sm_90", err, sizeof err), fc_judge(&j, obj, &opts);
 *  - each function's comment names the fc_status values it returns;
 *  - handles are opaque (fc_prober, fc_judgement), freed by a function that accepts NULL;
 *  - callbacks return 0 to go on and FC_STOP to stop.
 * Before, the out-parameters came last (fc_decode_fatbin, fc_decompress, fc_entry_kernels,
 * fc_object_kernels, fc_object_runtime, fc_target_parse, fc_arch_list_parse,
 * fc_driver_parse, fc_fleet_parse, fc_prober_load; the buffer of fc_entry_arch_name and
 * fc_entry_cuobjdump_arch), fc_detect_gpus and fc_detect_gpus_ext took MAX before N, and a
 * callback's negative value came back from fc_scan as it was. */

/* Results. Values below zero are failures. */
typedef enum fc_status {
    FC_OK = 0,
    FC_ERR_IO = -1,          /* the input could not be opened, mapped or read */
    FC_ERR_FORMAT = -2,      /* the input is malformed */
    FC_ERR_LIMIT = -3,       /* a size in the input is past a caller-set limit */
    FC_ERR_NOMEM = -4,       /* out of memory */
    FC_ERR_INVALID = -5,     /* a bad argument from the caller */
    FC_ERR_UNSUPPORTED = -6, /* a well-formed input this version cannot handle */
} fc_status;

/* What a callback returns to stop a scan or a walk early (fc_object_fn, fc_error_fn,
 * fc_torch_ext_fn). It is no fc_status, so that a stop is never read as a failure: the
 * function then returns FC_STOP. Any other nonzero value stops it too: a positive one is
 * returned as it is, a negative one as FC_STOP (libgit2's GIT_EUSER plays this part). */
#define FC_STOP (-1000)

/* "format error", "out of memory" ...; "stopped by a callback" for FC_STOP. A static string. */
FC_API const char *fc_status_name(fc_status s);

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_COMMON_H */
