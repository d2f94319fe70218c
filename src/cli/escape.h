/* escape.h - untrusted names and text made safe to print: one scheme for every renderer.
 *
 * File, member, kernel, section and GPU names come from inputs and drivers and may hold any
 * byte but NUL. Printed raw, a newline forges report lines and an escape sequence drives the
 * terminal. The scheme is git's for paths (core.quotePath=false), documented in fatcheck(1):
 *  - a name is printed as it is when it is valid UTF-8 without control characters, '"' or '\';
 *  - otherwise it is printed in double quotes with C escapes: \a \b \t \n \v \f \r \" \\, and
 *    every other byte that needs one as three octal digits (\033). Control characters are
 *    C0 and C1 (U+0000-U+001F, U+007F-U+009F), the line and paragraph separators and the
 *    bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A-U+202E,
 *    U+2066-U+2069); bytes that are not UTF-8 include overlong forms, surrogates and code
 *    points above U+10FFFF. Undoing the C escapes gives back the exact bytes.
 * Text inside a sentence (messages, kernel and GPU names) gets the same escapes without the
 * quotes, and its '"' and '\' are left alone: it reads as prose and cannot break a line.
 *
 * The functions returning const char * give S itself when nothing needs escaping (no copy),
 * else a buffer that stays valid for the next ESCAPE_SLOTS - 1 calls of any of them: enough for
 * every argument of one printf. Out of memory, they give a fixed placeholder. Not for threads:
 * the CLI prints from one. */
#ifndef FC_ESCAPE_H
#define FC_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ESCAPE_SLOTS 8

/* Length of the valid UTF-8 sequence at S (N bytes available, or fewer before a NUL) and its
 * code point, or 0: no overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629). */
size_t utf8_char(const unsigned char *s, size_t n, uint32_t *cp);
/* Code points that move the cursor, end a line or reorder what follows on a terminal (the
 * control characters above). */
bool is_control(uint32_t cp);

typedef enum escape_mode {
    ESCAPE_NAME,  /* quoted when needed, '"' and '\' escaped inside */
    ESCAPE_TEXT,  /* escapes only, no quotes */
    ESCAPE_SHELL, /* a POSIX shell word: '...' with '\'' for quotes, $'\ooo' for control bytes */
} escape_mode;

/* Writes S (LEN bytes) escaped in MODE to DST (CAP bytes, NUL-terminated when CAP > 0);
 * returns the length of the whole escaped text, as snprintf does. */
size_t escape_into(char *dst, size_t cap, const char *s, size_t len, escape_mode mode);
/* Whether S (LEN bytes) prints unchanged in MODE (ESCAPE_SHELL: never). */
bool escape_plain(const char *s, size_t len, escape_mode mode);

const char *quoted(const char *name);       /* ESCAPE_NAME */
const char *escaped(const char *text);      /* ESCAPE_TEXT */
const char *shell_quoted(const char *word); /* ESCAPE_SHELL */
/* TEXT escaped and cut to at most MAX bytes, "..." included, never inside a UTF-8 sequence
 * (LEN or fewer bytes: unchanged). */
const char *escaped_cut(const char *text, size_t max);

/* Prints "fatcheck: MSG\n" to OUT for a library message "LABEL: reason": the label (PATH,
 * PATH(MEMBER) or PATH!MEMBER when it starts the message) quoted as a name, the rest escaped
 * as text. PATH and MEMBER may be NULL. */
void print_message(FILE *out, const char *msg, const char *path, const char *member);
/* The same as "fatcheck: KIND MSG TAIL\n" (KIND "warning: ", TAIL a hint), KIND and TAIL as they are. */
void print_message_as(FILE *out, const char *kind, const char *msg, const char *path, const char *member,
                      const char *tail);

#endif
