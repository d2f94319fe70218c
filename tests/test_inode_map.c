/* test_inode_map.c - files and folders by device and inode (src/util/inode_map.c): added once,
 * values kept, growth past many entries, (0, 0) a key like any other. */
#include <stdint.h>

#include "inode_map.h"
#include "tap.h"

int main(void)
{
    fc_inode_map m = {0};
    const void *v = NULL;
    ok(!fc_inode_map_get(&m, 1, 2, 0, &v), "empty: nothing there");
    ok(fc_inode_map_add(&m, 1, 2, 0, "a") == 1, "added");
    ok(fc_inode_map_add(&m, 1, 2, 0, "b") == 0, "added again: present");
    ok(fc_inode_map_get(&m, 1, 2, 0, &v) && v && ((const char *)v)[0] == 'a', "its first value kept");
    ok(!fc_inode_map_get(&m, 2, 1, 0, NULL), "another device and inode: not there");
    ok(fc_inode_map_add(&m, 1, 2, 5, "c") == 1 && fc_inode_map_get(&m, 1, 2, 5, &v) && ((const char *)v)[0] == 'c',
       "another generation of the same inode: another key");
    ok(fc_inode_map_add(&m, 0, 0, 0, NULL) == 1 && fc_inode_map_get(&m, 0, 0, 0, NULL), "(0, 0) is a key too");
    int all = 1;
    for (uintptr_t i = 1; i <= 100000; i++)
        all &= fc_inode_map_add(&m, 7, (ino_t)i, 0, (const void *)i) == 1;
    for (uintptr_t i = 1; i <= 100000; i++)
        all &= fc_inode_map_get(&m, 7, (ino_t)i, 0, &v) && v == (const void *)i;
    ok(all, "100,000 added and found with their values, through growth");
    ok(m.n == 100003, "counted (%zu)", m.n);
    fc_inode_map_free(&m);
    ok(m.n == 0 && !fc_inode_map_get(&m, 1, 2, 0, NULL), "freed: empty again");
    return tap_done();
}
