/* replay.c - runs a fuzz target over files without libFuzzer: the test suite replays the
 * seed corpus and every crash ever found (fuzz/corpus/<target>/, fuzz/crashes/<target>/).
 * Usage: replay FILE|DIR...   Prints a TAP line per file. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int n;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("not ok %d - %s: cannot open\n", ++n, path);
        return;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(size > 0 ? (size_t)size : 1);
    size_t got = buf ? fread(buf, 1, (size_t)size, f) : 0;
    fclose(f);
    LLVMFuzzerTestOneInput(buf, got); /* a crash or a sanitizer report fails the test */
    free(buf);
    printf("ok %d - %s\n", ++n, path);
    fflush(stdout);
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d)
        return;
    char **names = NULL;
    size_t k = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (k == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
        }
        size_t len = strlen(path) + strlen(de->d_name) + 2;
        names[k] = malloc(len);
        snprintf(names[k++], len, "%s/%s", path, de->d_name);
    }
    closedir(d);
    if (k)
        qsort(names, k, sizeof *names, cmp);
    for (size_t i = 0; i < k; i++) {
        run(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        run(argv[i]);
    printf("1..%d\n", n);
    return 0;
}
