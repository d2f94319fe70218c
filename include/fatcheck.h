/* fatcheck.h - find CUDA fat binary containers in files and decode what they hold.
 *
 * The library reads ELF shared libraries, executables, relocatable objects, static
 * archives, Windows PE images (DLL, EXE, .pyd) and COFF objects, bare fat binaries,
 * standalone cubins, PTX text and directories of them.
 * It never prints and never exits: every function returns a status, and problems with an
 * input are described by an fc_error that names the file, the offset and the reason.
 *
 * All sizes read from an input are untrusted: they are checked against the input's bounds
 * and against the limits in fc_options before anything is allocated or read.
 */
#ifndef FATCHECK_H
#define FATCHECK_H

/* One header per concern (include/fatcheck/); each may be included alone. */
#include "fatcheck/common.h"  /* FC_API, FC_VERSION_STRING, fc_status, FC_STOP */
#include "fatcheck/scan.h"    /* fc_scan, fc_object, fc_container, fc_entry, fc_options */
#include "fatcheck/match.h"   /* fc_target, fc_predict_load, fc_predict_link, arch lists */
#include "fatcheck/gpus.h"    /* fc_detect_gpus, fc_prober */
#include "fatcheck/runtime.h" /* fc_object_runtime */
#include "fatcheck/require.h" /* container images' NVIDIA_REQUIRE_* */
#include "fatcheck/kernels.h" /* fc_entry_kernels, fc_object_kernels */
#include "fatcheck/fleet.h"   /* fc_fleet_parse */
#include "fatcheck/torch.h"   /* fc_torch_extensions */
#include "fatcheck/verdict.h" /* fc_judge: a file's verdict per target */

#endif /* FATCHECK_H */
