/* targets.h - the GPUs a run judges, for every front end: those named, an inventory's, an
 * arch list's, else (and, for --probe, also) the local ones. */
#ifndef FC_TARGETS_H
#define FC_TARGETS_H

#include "cli.h"

typedef struct target_request {
    const fc_target *named;     /* --gpu, in order */
    size_t n_named;
    int driver;                 /* --driver's CUDA version, or 0 */
    const char *driver_text;    /* --driver as given (a CUDA version or a driver release), or NULL */
    const fc_fleet_group *fleet; /* --gpus-from */
    size_t n_fleet;
    bool probe;                 /* the local GPUs too, numbered as the driver numbers them */
    fc_detect_options detect;
} target_request;

/* Fills CFG's targets (cfg->judge) and what detection found (detect_*, no_target_reason), the
 * arch list's targets from cfg->arch_list when cfg->judge.arch_list is set. Returns 0, or -1
 * with ERR set (a usage error) when REQ->probe and no local GPU could be found, or when the
 * targets of all kinds are more than FC_MAX_TARGETS. */
int setup_targets(config *cfg, const target_request *req, char *err, size_t err_size);
/* The same in two steps, so that the first input is read while the local GPUs are asked:
 * targets_begin fills the named targets and, when the local ones are wanted, starts asking
 * (cfg->detecting; before any thread is started, see fc_detect_start); targets_end, before
 * anything is judged, adds what the answer found. --probe's detection is done in
 * targets_begin: it fails the run. Each returns as setup_targets does. */
int targets_begin(config *cfg, const target_request *req, char *err, size_t err_size);
int targets_end(config *cfg, const target_request *req, char *err, size_t err_size);

#endif
