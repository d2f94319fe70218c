/* entry_lists.c - the memory a caller holds when it keeps the kernel list of every image of a
 * file, each asked for on its own with fc_entry_kernels (the library's API, not the kernel
 * view, which shares one pool of names across lists): prints the lists, the kernels and the
 * peak RSS.
 *
 *   build/bench/entry_lists FILE
 */
#include <fatcheck.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

typedef struct kept {
    fc_kernel_list **lists;
    size_t n, cap;
} kept;

static int on_object(void *ctx, const fc_object *o)
{
    kept *k = ctx;
    for (size_t c = 0; c < o->n_containers; c++)
        for (size_t e = 0; e < o->containers[c].n_entries; e++) {
            fc_kernel_list *l = NULL;
            if (fc_entry_kernels(&l, o, &o->containers[c].entries[e], NULL) != FC_OK)
                continue;
            if (k->n == k->cap) {
                size_t cap = k->cap ? k->cap * 2 : 1024;
                fc_kernel_list **more = realloc(k->lists, cap * sizeof *more);
                if (!more) {
                    perror("entry_lists");
                    exit(2);
                }
                k->lists = more;
                k->cap = cap;
            }
            k->lists[k->n++] = l;
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: entry_lists FILE\n");
        return 2;
    }
    fc_options opts;
    fc_options_init(&opts);
    kept k = {0};
    fc_scan(argv[1], &opts, on_object, NULL, &k);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    size_t kernels = 0;
    for (size_t i = 0; i < k.n; i++)
        kernels += k.lists[i]->n;
    printf("%zu lists, %zu kernels, peak %ld KiB\n", k.n, kernels, ru.ru_maxrss);
    for (size_t i = 0; i < k.n; i++)
        fc_kernel_list_free(k.lists[i]);
    free(k.lists);
    return 0;
}
