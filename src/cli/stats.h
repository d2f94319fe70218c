/* stats.h - counting what a set of containers holds, for the summary. */
#ifndef FC_STATS_H
#define FC_STATS_H

#include "fatcheck.h"

typedef struct arch_count {
    fc_image_kind kind;
    uint32_t arch;
    fc_variant variant;
    uint16_t isa_major, isa_minor; /* PTX only: counted apart per PTX ISA version */
    size_t n;
} arch_count;

typedef struct isa_count {
    uint16_t major, minor;
    size_t n;
} isa_count;

typedef struct section_count {
    const char *name; /* not owned: lives as long as the object */
    size_t n;
} section_count;

typedef struct stats {
    size_t containers, entries;
    size_t by_kind[4];        /* indexed by fc_image_kind */
    size_t by_compression[4]; /* indexed by fc_compression */
    size_t debug;
    arch_count *archs;
    size_t n_archs, cap_archs;
    isa_count *isas;          /* PTX ISA versions */
    size_t n_isas, cap_isas;
    section_count *sections;
    size_t n_sections, cap_sections;
    int failed;               /* out of memory */
} stats;

void stats_add(stats *s, const fc_container *c);
/* Sorts archs by kind, then number, then variant; ISA versions ascending. */
void stats_sort(stats *s);
void stats_free(stats *s);

#endif
