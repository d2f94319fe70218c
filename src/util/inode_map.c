/* inode_map.c - files and folders by device and inode (inode_map.h). */
#include <stdint.h>
#include <stdlib.h>

#include "inode_map.h"

struct fc_inode_slot {
    dev_t dev;
    ino_t ino;
    uint64_t gen;
    bool used;
    const void *value;
};

static size_t slot_of(const fc_inode_map *m, dev_t dev, ino_t ino, uint64_t gen)
{
    uint64_t h = (((uint64_t)ino ^ (gen * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull) ^ (uint64_t)dev;
    size_t i = (size_t)(h ^ (h >> 29)) & (m->cap - 1);
    while (m->slots[i].used && !(m->slots[i].dev == dev && m->slots[i].ino == ino && m->slots[i].gen == gen))
        i = (i + 1) & (m->cap - 1);
    return i;
}

int fc_inode_map_add(fc_inode_map *m, dev_t dev, ino_t ino, uint64_t gen, const void *value)
{
    if ((m->n + 1) * 2 > m->cap) {
        fc_inode_map bigger = {NULL, 0, m->cap ? m->cap * 2 : 256};
        if (bigger.cap < m->cap || !(bigger.slots = calloc(bigger.cap, sizeof *bigger.slots)))
            return -1;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].used)
                bigger.slots[slot_of(&bigger, m->slots[i].dev, m->slots[i].ino, m->slots[i].gen)] = m->slots[i];
        bigger.n = m->n;
        free(m->slots);
        *m = bigger;
    }
    size_t i = slot_of(m, dev, ino, gen);
    if (m->slots[i].used)
        return 0;
    m->slots[i] = (struct fc_inode_slot){dev, ino, gen, true, value};
    m->n++;
    return 1;
}

bool fc_inode_map_get(const fc_inode_map *m, dev_t dev, ino_t ino, uint64_t gen, const void **value)
{
    if (!m->cap)
        return false;
    const struct fc_inode_slot *s = &m->slots[slot_of(m, dev, ino, gen)];
    if (s->used && value)
        *value = s->value;
    return s->used;
}

void fc_inode_map_free(fc_inode_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->n = m->cap = 0;
}
