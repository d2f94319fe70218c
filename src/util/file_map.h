/* file_map.h - mappings of whole files that survive the file being cut short.
 *
 * A page of a file mapping that lies past the file's end raises SIGBUS when touched, which
 * kills the process: a file truncated or rewritten in place while it is scanned would do
 * that. While mappings made here exist, the library's SIGBUS handler is installed; it
 * answers a fault inside one of them by mapping zero pages over the rest of that mapping
 * and marking it changed, and passes every other SIGBUS to the handler that was there
 * before (or to the default action, which ends the process as it would have). Readers go
 * on over zeros, one more kind of bad input, and the scan reports the change. The handler
 * is removed when the last mapping goes, if nobody replaced it meanwhile.
 */
#ifndef FC_FILE_MAP_H
#define FC_FILE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fc_file_map {
    const uint8_t *data;
    size_t size;
    int slot;          /* its place in the registry the handler reads; -1 when unmapped */
} fc_file_map;

/* Maps the first SIZE (> 0) bytes of FD privately and registers the mapping. Returns 0, or
 * an errno (the mapping failed). */
int fc_file_map_open(fc_file_map *m, int fd, size_t size);
/* Unregisters and unmaps. Accepts an unmapped M. */
void fc_file_map_close(fc_file_map *m);
/* True once a read of M past the file's end (or of a page the kernel could not read) was
 * answered with zeros, or fc_file_map_range_changed found the file shorter. */
bool fc_file_map_changed(const fc_file_map *m);
/* True when P lies in a registered mapping and [P, P + N) was read as zeros: a fault in the
 * mapping was answered with zeros, or the file now ends before P + N. For reads through a
 * pointer that may or may not be into one (an object's image); costs an fstat when it is. */
bool fc_file_map_range_changed(const void *p, size_t n);
/* True when [P, P + N) lies in a registered mapping: *FD is its file and *OFF where P lies in
 * it, for reads by pread rather than through the mapping (valid while the mapping is). */
bool fc_file_map_locate(const void *p, size_t n, int *fd, uint64_t *off);

#endif
