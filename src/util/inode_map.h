/* inode_map.h - files and folders by device and inode: which were seen (a symlink or a bind
 * mount makes one reachable under several names) and what was found of them. */
#ifndef FC_INODE_MAP_H
#define FC_INODE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* An open-addressing hash map; zero-initialised it is empty. Not thread-safe. */
typedef struct fc_inode_map {
    struct fc_inode_slot *slots;
    size_t n, cap;
} fc_inode_map;

/* Adds (DEV, INO, GEN) with VALUE: 1 when added, 0 when present (its value unchanged), -1
 * when out of memory. GEN tells apart files that held one inode in turn (the walk's: its
 * ctime; an inode freed and given to a new file in mid-walk is another file), or is 0. */
int fc_inode_map_add(fc_inode_map *m, dev_t dev, ino_t ino, uint64_t gen, const void *value);
/* Whether (DEV, INO, GEN) is present; *VALUE (when not NULL) gets its value. */
bool fc_inode_map_get(const fc_inode_map *m, dev_t dev, ino_t ino, uint64_t gen, const void **value);
void fc_inode_map_free(fc_inode_map *m);

#endif
