/* pool.c - helper threads kept for the length of a scan (see pool.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "fatcheck.h"
#include "pool.h"

#define MAX_HELPERS (FC_MAX_THREADS - 1)
/* Helpers need little stack. A small one also keeps the kernel from backing it with a
 * transparent huge page, which would add 2 MiB of resident memory per thread. */
#define HELPER_STACK (256u << 10)

struct fc_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;   /* seats were offered, or quit */
    pthread_cond_t idle;   /* busy fell to zero */
    pthread_t tids[MAX_HELPERS];
    unsigned max, started;
    void (*work)(void *);
    void *ctx;
    unsigned seats;        /* helpers still wanted for the current work */
    unsigned busy;         /* helpers running it */
    bool quit;
};

static void *helper(void *arg)
{
    fc_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->seats == 0)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        p->seats--;
        p->busy++;
        void (*work)(void *) = p->work;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->lock);
        work(ctx);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0)
            pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

fc_pool *fc_pool_new(unsigned max_helpers)
{
    fc_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->max = max_helpers < MAX_HELPERS ? max_helpers : MAX_HELPERS;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    return p;
}

/* Starts helpers until N are running (or no more can be). Called with the lock held. */
static void start_helpers(fc_pool *p, unsigned n)
{
    if (p->started >= n)
        return;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, HELPER_STACK);
    while (p->started < n && pthread_create(&p->tids[p->started], &attr, helper, p) == 0)
        p->started++;
    pthread_attr_destroy(&attr);
}

void fc_pool_run(fc_pool *p, void (*work)(void *ctx), void *ctx, unsigned helpers)
{
    if (!p || helpers == 0) {
        work(ctx);
        return;
    }
    pthread_mutex_lock(&p->lock);
    start_helpers(p, helpers < p->max ? helpers : p->max);
    p->work = work;
    p->ctx = ctx;
    p->seats = helpers < p->started ? helpers : p->started;
    if (p->seats)
        pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    work(ctx);
    pthread_mutex_lock(&p->lock);
    p->seats = 0; /* the work is done: helpers not yet seated are not needed */
    while (p->busy)
        pthread_cond_wait(&p->idle, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void fc_pool_free(fc_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->started; i++)
        pthread_join(p->tids[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static pthread_once_t cpus_once = PTHREAD_ONCE_INIT;
static unsigned cpus;

static void count_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpus = n < 1 ? 1 : n > 4096 ? 4096 : (unsigned)n;
}

unsigned fc_online_cpus(void)
{
    pthread_once(&cpus_once, count_cpus);
    return cpus;
}

unsigned fc_thread_count(const struct fc_options *opts)
{
    unsigned n = opts && opts->threads ? opts->threads : fc_online_cpus();
    return n > FC_MAX_THREADS ? FC_MAX_THREADS : n;
}
