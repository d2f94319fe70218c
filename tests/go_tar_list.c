/* go_tar_list.c - lists a tar as src/image/oci_tar_go.c reads it: the entries Go's
 * archive/tar would return, fed in pieces of CHUNK bytes (default 4096), for tests and for
 * comparison with Go itself (tests/golist/main.go prints the same lines).
 *
 * Usage: go_tar_list TAR [CHUNK]
 * Each entry: TYPE<TAB>SIZE<TAB>NAME<TAB>LINK (bytes below 0x20, from 0x7f and '\' as \xNN);
 * then "END" (a block of zeros), "STOPPED: why", or "NO END" (the input ran out first). */
#include <stdio.h>
#include <stdlib.h>

#include "image/oci_tar_go.h"

static void put(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p >= 0x7f || *p == '\\')
            printf("\\x%02x", *p);
        else
            putchar(*p);
}

static void drain(fc_go_tar *t)
{
    fc_go_entry e;
    while (fc_go_tar_next(t, &e)) {
        if (e.type < 0x20 || e.type >= 0x7f)
            printf("\\x%02x", e.type);
        else
            putchar(e.type);
        printf("\t%lld\t", (long long)e.size);
        put(e.name);
        putchar('\t');
        put(e.link);
        putchar('\n');
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: go_tar_list TAR [CHUNK]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    size_t chunk = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 4096;
    unsigned char *buf = malloc(chunk ? chunk : 1);
    fc_go_tar *t = fc_go_tar_new();
    if (!f || !buf || !t || !chunk) {
        perror(argv[1]);
        return 2;
    }
    size_t n;
    while ((n = fread(buf, 1, chunk, f)) > 0) {
        if (!fc_go_tar_feed(t, buf, n)) {
            fprintf(stderr, "out of memory\n");
            return 2;
        }
        drain(t);
    }
    drain(t);
    if (fc_go_tar_stopped(t))
        printf("STOPPED: %s\n", fc_go_tar_stopped(t));
    else
        puts(fc_go_tar_ended(t) ? "END" : "NO END");
    fc_go_tar_free(t);
    free(buf);
    fclose(f);
    return 0;
}
