/* pool.h - helper threads kept for the length of a scan.
 *
 * A directory or a static archive holds thousands of objects, most with little to do:
 * starting threads for each would cost more than their work. The pool starts helpers the
 * first time they are wanted and keeps them, idle, until the scan ends. */
#ifndef FC_POOL_H
#define FC_POOL_H

typedef struct fc_pool fc_pool;

/* A pool of at most MAX_HELPERS helper threads; NULL when out of memory. */
fc_pool *fc_pool_new(unsigned max_helpers);
/* Runs WORK(CTX) on the calling thread and on up to HELPERS helpers at once, and returns
 * when every call has returned. WORK takes its work from CTX until none is left, so a
 * helper that joins late finds none and returns at once. A NULL pool runs WORK once, here. */
void fc_pool_run(fc_pool *p, void (*work)(void *ctx), void *ctx, unsigned helpers);
/* Stops and joins the helpers. Accepts NULL. */
void fc_pool_free(fc_pool *p);

/* The most threads one piece of work uses: the caller and helpers together. */
#define FC_MAX_THREADS 64

/* The CPUs online, asked once (glibc reads a file under /sys for every sysconf call, which
 * a scan of thousands of archive members would repeat for each). */
unsigned fc_online_cpus(void);
/* Threads OPTS asks for (opts->threads, or all CPUs when 0, or OPTS NULL), from 1 to
 * FC_MAX_THREADS. */
struct fc_options;
unsigned fc_thread_count(const struct fc_options *opts);

#endif
