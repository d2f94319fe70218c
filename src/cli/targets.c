/* targets.c - the GPUs a run judges: named ones, an inventory's, an arch list's, else (and,
 * for --probe, also) the local ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"

/* --driver's release, when it names one rather than a CUDA version: kept with the targets
 * (container images check it). cuDriverGetVersion's 13000 is a CUDA version: taken for a
 * release, it met every image's driver>= (review of 2026-12-05, rt7 F1). */
static const char *release_of(const target_request *req, char *buf, size_t size)
{
    return req->driver_text && fc_driver_release(req->driver_text, buf, size) ? buf : NULL;
}

/* Adds T (bound to local DEVICE, or -1); -1 with ERR set when the targets are full: each part
 * was capped on its own, and ten --gpu targets beside an inventory of 55 kinds of GPU had the
 * last one dropped unsaid, exit 0 (review of 2026-12-06, rt11 F2). */
static int add(fc_judge_options *jo, const fc_target *t, int device, char *err, size_t err_size)
{
    if (fc_judge_options_add_target(jo, t, device) != FC_ERR_LIMIT)
        return 0;
    snprintf(err, err_size, "more than %d targets in all (--gpu, --gpus-from's kinds of GPU, --arch-list and, with "
                            "--probe, the local GPUs): judge them in several runs", FC_MAX_TARGETS);
    return -1;
}

int targets_begin(config *cfg, const target_request *req, char *err, size_t err_size)
{
    fc_judge_options *jo = &cfg->judge;
    char release_buf[sizeof ((fc_target *)0)->driver];
    const char *release = release_of(req, release_buf, sizeof release_buf);
    for (size_t i = 0; i < req->n_named; i++) {
        fc_target t = req->named[i];
        t.driver_cuda = req->driver;
        if (release)
            snprintf(t.driver, sizeof t.driver, "%s", release);
        if (add(jo, &t, -1, err, err_size) != 0)
            return -1;
    }
    /* --driver is the driver of an inventory's groups that name none (one without drivers
     * judged PTX as for a driver new enough, its --driver unheard). A group that names its
     * own keeps it: --driver given for --gpu's targets judged a fleet's 470 nodes as 13.0
     * ones, their driver said nowhere, exit 0 (review of 2026-12-08, rv43 F5). */
    for (size_t i = 0; i < req->n_fleet; i++) {
        const fc_fleet_group *g = &req->fleet[i];
        fc_target t = g->target;
        if (req->driver_text && !g->driver[0] && !t.driver_cuda) {
            t.driver_cuda = req->driver;
            snprintf(t.driver, sizeof t.driver, "%s", release ? release : "");
        }
        if (add(jo, &t, -1, err, err_size) != 0)
            return -1;
    }
    for (size_t i = 0; jo->arch_list && i < jo->arch_list->n; i++) {
        fc_target t = {.cc = jo->arch_list->entries[i].cc, .driver_cuda = req->driver};
        t.tegra = fc_cc_is_tegra(t.cc);
        if (release)
            snprintf(t.driver, sizeof t.driver, "%s", release);
        snprintf(t.source, sizeof t.source, "--arch-list");
        if (add(jo, &t, -1, err, err_size) != 0)
            return -1;
    }
    if (jo->n_targets && !req->probe)
        return 0;
    fc_detect_options detect = req->detect;
    /* --probe loads on device numbers: the driver's own numbering, not a reproduction. */
    detect.method = req->probe ? FC_DETECT_DRIVER : FC_DETECT_AUTO;
    char why[512];
    fc_status st = fc_detect_start(&cfg->detecting, &detect, why, sizeof why);
    if (st == FC_OK && !req->probe)
        return 0; /* answered in targets_end */
    if (st == FC_OK)
        return targets_end(cfg, req, err, err_size);
    if (req->probe) {
        snprintf(err, err_size, "--probe needs a local GPU: %s", why);
        return -1;
    }
    snprintf(cfg->no_target_reason, sizeof cfg->no_target_reason, "%s; name target GPUs with --gpu or --arch-list",
             why);
    /* The asking process could not start: whether GPUs are here is not known. */
    snprintf(cfg->detect_unjudged, sizeof cfg->detect_unjudged, "the local GPUs could not be asked: %s", why);
    cfg->detect_ran = true;
    return 0;
}

int targets_end(config *cfg, const target_request *req, char *err, size_t err_size)
{
    if (!cfg->detecting)
        return 0;
    fc_judge_options *jo = &cfg->judge;
    char release_buf[sizeof ((fc_target *)0)->driver];
    const char *release = release_of(req, release_buf, sizeof release_buf);
    fc_target local[FC_MAX_TARGETS];
    size_t n = 0;
    fc_detect_info info;
    char why[512];
    fc_status st = fc_detect_finish(cfg->detecting, local, &n, FC_MAX_TARGETS, &info, why, sizeof why);
    cfg->detecting = NULL;
    if (st == FC_OK) {
        for (size_t i = 0; i < n; i++) {
            if (req->driver_text && !req->probe) {
                local[i].driver_cuda = req->driver;
                snprintf(local[i].driver, sizeof local[i].driver, "%s", release ? release : "");
            }
            if (add(jo, &local[i], (int)i, err, err_size) != 0)
                return -1;
        }
    } else if (req->probe) {
        snprintf(err, err_size, "--probe needs a local GPU: %s", why);
        return -1;
    } else {
        snprintf(cfg->no_target_reason, sizeof cfg->no_target_reason,
                 "%s%s; name target GPUs with --gpu or --arch-list", why,
                 info.timed_out ? "; allow more time with --detect-timeout" : "");
    }
    /* A driver that hangs or crashes is not the absence of one, and a GPU left out is not
     * judged: a run judging nothing (or the others) passed, --strict too (review of
     * 2026-12-05, rt8 2 and rt7 F8). --probe too: it judges and loads on the GPUs the driver
     * describes, and one it does not was passed over without a word (rv9 8). */
    if (!req->probe && info.no_answer)
        snprintf(cfg->detect_unjudged, sizeof cfg->detect_unjudged, "the local GPUs could not be asked: %s", why);
    else if (info.not_judged)
        snprintf(cfg->detect_unjudged, sizeof cfg->detect_unjudged, "%u local GPU%s not judged: %s", info.not_judged,
                 info.not_judged == 1 ? " is" : "s are", info.note);
    /* A compute capability no table here knows (a GPU newer than this fatcheck) is judged by
     * its major's rules, which NVIDIA has not stated for it: an sm_100f cubin on a 10.7 GPU
     * was ok, --strict too (review of 2026-12-05, rt7 F6). Named, such a value is refused. */
    for (size_t i = 0; st == FC_OK && i < n; i++) {
        size_t len = strlen(cfg->detect_unjudged);
        if (fc_cc_exists(local[i].cc) || len + 1 >= sizeof cfg->detect_unjudged)
            continue;
        snprintf(cfg->detect_unjudged + len, sizeof cfg->detect_unjudged - len,
                 "%sGPU %zu has compute capability %u.%u, which this fatcheck does not know: judged by rules NVIDIA "
                 "has not stated for it", len ? "; " : "", i, local[i].cc / 10, local[i].cc % 10);
    }
    cfg->detected_by = info.answered_by == FC_DETECT_NVML     ? "nvml"
                       : info.answered_by == FC_DETECT_DRIVER ? "driver"
                                                              : NULL;
    cfg->detect_ran = true;
    snprintf(cfg->detect_note, sizeof cfg->detect_note, "%s", info.note);
    snprintf(cfg->detect_driver_reason, sizeof cfg->detect_driver_reason, "%s", info.driver_reason);
    return 0;
}

int setup_targets(config *cfg, const target_request *req, char *err, size_t err_size)
{
    int rc = targets_begin(cfg, req, err, err_size);
    return rc == 0 ? targets_end(cfg, req, err, err_size) : rc;
}
