/* testutil.h - reading fixtures, and writing little-endian fields, for the C tests.
 * FIXTURES_DIR comes from meson. */
#ifndef FC_TESTUTIL_H
#define FC_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline void put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static inline void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline char *fixture_path(const char *name)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", FIXTURES_DIR, name);
    return buf;
}

/* The whole fixture NAME in a heap buffer (exits on failure: a test cannot go on). */
static inline unsigned char *read_fixture(const char *name, size_t *size)
{
    FILE *f = fopen(fixture_path(name), "rb");
    if (!f) {
        printf("Bail out! cannot open fixture %s\n", name);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
        printf("Bail out! cannot read fixture %s\n", name);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

#endif
