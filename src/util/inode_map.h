/* inode_map.h - files and folders by device and inode: which were seen (a symlink or a bind
 * mount makes one reachable under several names) and what was found of them. */
#ifndef FC_INODE_MAP_H
#define FC_INODE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* An open-addressing hash map; zero-initialised it is empty. Not thread-safe. */
typedef struct fc_inode_map {
    struct fc_inode_slot *slots;
    size_t n, cap;
} fc_inode_map;

/* Adds (DEV, INO) with VALUE: 1 when added, 0 when present (its value unchanged), -1 when out
 * of memory. */
int fc_inode_map_add(fc_inode_map *m, dev_t dev, ino_t ino, const void *value);
/* Whether (DEV, INO) is present; *VALUE (when not NULL) gets its value. */
bool fc_inode_map_get(const fc_inode_map *m, dev_t dev, ino_t ino, const void **value);
void fc_inode_map_free(fc_inode_map *m);

#endif
