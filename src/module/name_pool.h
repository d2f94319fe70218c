/* name_pool.h - kernel names kept once for all the images of an object.
 *
 * A library built for several GPUs holds each kernel once per SM version: libtorch_cuda.so's
 * kernel view held the same mangled and demangled names in every cubin, one malloc each, and
 * demangled every copy. A pool keeps one copy of each name and of its demangled form, shared
 * by the lists of all threads (sharded locks), and freed when the last list lets it go. */
#ifndef FC_NAME_POOL_H
#define FC_NAME_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fc_name_pool fc_name_pool;

/* What turns a name into its demangled form: a malloc'd string, or NULL where it stays as it
 * is (not a mangled name, or one the demangler refuses) or, *NOMEM set, for want of memory. */
typedef char *(*fc_demangle_fn)(const char *name, size_t len, bool *nomem);

/* A pool with one reference, or NULL when out of memory. SHARDS (rounded up to a power of two,
 * at most 64) locks and tables: many for threads that share it, one for a list of its own,
 * which would otherwise hold a table and a block for each. */
fc_name_pool *fc_name_pool_new(unsigned shards);
fc_name_pool *fc_name_pool_ref(fc_name_pool *p);
void fc_name_pool_unref(fc_name_pool *p); /* frees it with the last reference; accepts NULL */

/* The pool's copy of NAME[0..len) (no NUL byte inside) into *KEPT and of its demangled form
 * (DEMANGLE's answer, asked the first time the name is met; *KEPT itself when it has none) into
 * *DEMANGLED. Safe from several threads. False when out of memory, the demangler's too. */
bool fc_name_pool_get(fc_name_pool *p, const char *name, size_t len, fc_demangle_fn demangle, const char **kept,
                      const char **demangled);

/* Eight bytes at a time (names run to kilobytes in cuBLASLt), each step mixed through
 * splitmix64's finaliser, under a key drawn once a process (name_pool.c). */
uint64_t fc_name_hash(const char *s, size_t n);

#endif
