/* tap.h - a minimal Test Anything Protocol writer for the C tests (meson reads TAP). */
#ifndef FC_TAP_H
#define FC_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (!cond) {
        printf("#   failed at %s:%d\n", file, line);
        tap_failed++;
    }
    fflush(stdout);
    return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_u64(got, want, ...)                                                                   \
    do {                                                                                         \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                                    \
        if (!ok(g_ == w_, __VA_ARGS__))                                                          \
            printf("#   got %" PRIu64 ", want %" PRIu64 "\n", g_, w_);                            \
    } while (0)
#define is_str(got, want, ...)                                                                   \
    do {                                                                                         \
        const char *g_ = (got), *w_ = (want);                                                    \
        if (!ok((g_ && w_ && strcmp(g_, w_) == 0) || (!g_ && !w_), __VA_ARGS__))                 \
            printf("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)");       \
    } while (0)

/* N points not tested here, for WHY. */
static inline void tap_skip(int n, const char *why)
{
    while (n-- > 0)
        printf("ok %d # SKIP %s\n", ++tap_n, why);
    fflush(stdout);
}

static inline int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
