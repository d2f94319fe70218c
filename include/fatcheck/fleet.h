/* fatcheck/fleet.h - GPU inventories (nvidia-smi, kubectl) grouped into targets. */
#ifndef FATCHECK_FLEET_H
#define FATCHECK_FLEET_H

#include "match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GPUs alike (model, compute capability, driver) across a fleet: one target for all. */
typedef struct fc_fleet_group {
    fc_target target;   /* name: the product; source: "12 nodes, 96 GPUs: NVIDIA-H100-80GB-HBM3, driver 550.107.02" */
    unsigned nodes, gpus; /* nodes: 0 where the inventory does not tell them (nvidia-smi CSV) */
    char driver[64];    /* the driver release, "" when not given */
} fc_fleet_group;

/* Parses an inventory: the output of `nvidia-smi --query-gpu=index,name,compute_cap,
 * driver_version --format=csv` (header optional; with one, columns may come in any order),
 * or `kubectl get nodes -o json` (NVIDIA GPU Feature Discovery labels). Fills up to MAX
 * groups. Returns FC_ERR_FORMAT with ERR set (naming the line or node) on bad input or one
 * that lists no GPU, FC_ERR_LIMIT (ERR set) past MAX groups, FC_ERR_NOMEM. */
FC_API fc_status fc_fleet_parse(fc_fleet_group *groups, size_t *n, size_t max, const char *text, size_t len,
                                char *err, size_t err_size);

/* Adds the N_MORE groups of MORE (another inventory's, as fc_fleet_parse gave them) to the *N
 * of GROUPS: a group alike in both (product, compute capability, driver) is one, its nodes and
 * GPUs counted together. FC_ERR_LIMIT (ERR set) past MAX groups. */
FC_API fc_status fc_fleet_merge(fc_fleet_group *groups, size_t *n, size_t max, const fc_fleet_group *more, size_t n_more,
                                char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* FATCHECK_FLEET_H */
