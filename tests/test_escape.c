/* test_escape.c - the escaping scheme (src/cli/escape.c) and JSON strings (json_writer.c),
 * with exact expectations. */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "json_writer.h"
#include "tap.h"

/* What jw_field_string writes for NAME and S. */
static char *json_field_text(const char *name, const char *s)
{
    char *text = NULL, buf[16]; /* a small buffer: long strings go through jw_flush */
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    jw w = jw_make(f, buf, sizeof buf);
    jw_field_string(&w, name, s);
    jw_flush(&w);
    fclose(f);
    return text;
}

static void json_is(const char *name, const char *s, const char *want, const char *what)
{
    char *got = json_field_text(name, s);
    is_str(got, want, "json: %s", what);
    free(got);
}

int main(void)
{
    /* Names: unchanged unless they need quoting. */
    is_str(quoted("libcublasLt.so.13"), "libcublasLt.so.13", "a plain name is unchanged");
    is_str(quoted("caf\xc3\xa9 \xe2\x9c\x93 it's (1).so"), "caf\xc3\xa9 \xe2\x9c\x93 it's (1).so",
           "printable UTF-8, blanks, quotes and parentheses are unchanged");
    is_str(quoted(""), "", "the empty name");
    /* rt12 F7 (2026-12-06): a GitHub Actions workflow command at the start of a line */
    is_str(quoted("::warning::hi.so"), "\"::warning::hi.so\"", "a name starting with :: is quoted");
    is_str(quoted("a::b.so"), "a::b.so", "one with :: inside is not");
    is_str(quoted("a\nb"), "\"a\\nb\"", "newline");
    is_str(quoted("\a\b\t\n\v\f\r"), "\"\\a\\b\\t\\n\\v\\f\\r\"", "the letter escapes");
    is_str(quoted("\x1b[31mred"), "\"\\033[31mred\"", "escape sequence");
    is_str(quoted("\x01\x7f"), "\"\\001\\177\"", "C0 and DEL in octal");
    is_str(quoted("a\"b"), "\"a\\\"b\"", "a double quote makes a name quoted");
    is_str(quoted("a\\b"), "\"a\\\\b\"", "a backslash makes a name quoted");
    is_str(quoted("\xc2\x9b" "31m"), "\"\\302\\23331m\"", "C1 control (U+009B)");
    is_str(quoted("\xe2\x80\xae" "abc"), "\"\\342\\200\\256abc\"", "right-to-left override");
    is_str(quoted("\xe2\x81\xa6x\xe2\x80\xa8"), "\"\\342\\201\\246x\\342\\200\\250\"", "isolate, line separator");
    is_str(quoted("\xd8\x9c\xe2\x80\x8e\xe2\x80\x8f"), "\"\\330\\234\\342\\200\\216\\342\\200\\217\"", "ALM, LRM, RLM");
    is_str(quoted("\xe0\x80\xaf"), "\"\\340\\200\\257\"", "overlong form");
    is_str(quoted("\xc0\xaf"), "\"\\300\\257\"", "overlong two-byte form");
    is_str(quoted("\xed\xa0\x80"), "\"\\355\\240\\200\"", "surrogate");
    is_str(quoted("\xf4\x90\x80\x80"), "\"\\364\\220\\200\\200\"", "above U+10FFFF");
    is_str(quoted("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80", "a four-byte character is kept");
    is_str(quoted("\xe2\x82"), "\"\\342\\202\"", "truncated at the end");
    is_str(quoted("\xe2\x82x"), "\"\\342\\202x\"", "truncated before ASCII");
    is_str(quoted("\xff\xfe"), "\"\\377\\376\"", "bytes that start nothing");

    /* Text: the same escapes, no quotes, '"' and '\' left alone. */
    is_str(escaped("options=\"-O3\" C:\\x"), "options=\"-O3\" C:\\x", "text keeps quotes and backslashes");
    is_str(escaped("a\nb\x1b[2J\xff"), "a\\nb\\033[2J\\377", "text escapes");

    /* Shell words. */
    is_str(shell_quoted("/tmp/ext"), "'/tmp/ext'", "shell: plain");
    is_str(shell_quoted("it's"), "'it'\\''s'", "shell: single quote");
    is_str(shell_quoted("a\nb"), "'a'$'\\n''b'", "shell: control in the middle");
    is_str(shell_quoted("\x1b" "x"), "''$'\\033''x'", "shell: control first");
    is_str(shell_quoted("x\xff"), "'x'$'\\377'", "shell: control last");
    is_str(shell_quoted(""), "''", "shell: empty");

    /* Cutting: whole characters and escapes, "..." included in the limit. */
    is_str(escaped_cut("abcdef", 6), "abcdef", "cut: fits");
    is_str(escaped_cut("abcdefg", 6), "abc...", "cut: ASCII");
    is_str(escaped_cut("ab\xc3\xa9\xc3\xa9", 6), "ab\xc3\xa9\xc3\xa9", "cut: six bytes fit in six");
    is_str(escaped_cut("ab\xc3\xa9\xc3\xa9x", 6), "ab...", "cut: never inside a character");
    is_str(escaped_cut("a\xc3\xa9\xc3\xa9zz", 6), "a\xc3\xa9...", "cut: whole characters while they fit");
    is_str(escaped_cut("a\x1b" "bcdef", 8), "a\\033...", "cut: escapes kept whole");
    is_str(escaped_cut("ab\x1b" "cdef", 8), "ab...", "cut: an escape that does not fit is left out");

    /* escape_into counts like snprintf. */
    char small[5];
    is_u64(escape_into(small, sizeof small, "a\nbcd", 5, ESCAPE_NAME), 8, "escape_into: full length");
    is_str(small, "\"a\\n", "escape_into: truncated, terminated");
    is_u64(escape_into(NULL, 0, "a\0b", 3, ESCAPE_TEXT), 6, "escape_into: NUL inside LEN escaped");

    /* The ring: eight results alive at once. */
    const char *r[ESCAPE_SLOTS];
    char want[ESCAPE_SLOTS][16];
    for (int i = 0; i < ESCAPE_SLOTS; i++) {
        char in[8];
        snprintf(in, sizeof in, "\x01%d", i);
        snprintf(want[i], sizeof want[i], "\"\\001%d\"", i);
        r[i] = quoted(in);
    }
    int alive = 1;
    for (int i = 0; i < ESCAPE_SLOTS; i++)
        alive &= strcmp(r[i], want[i]) == 0;
    ok(alive, "eight quoted names at once");

    /* print_message: the label quoted, the rest escaped. */
    char *msg = NULL;
    size_t msg_len = 0;
    FILE *f = open_memstream(&msg, &msg_len);
    print_message(f, "a\nb.a(x\x1b.o): .nv_fatbin+0x10: \"bad\" \x07", "a\nb.a", "x\x1b.o");
    print_message(f, "a\nb.whl!lib/x.so: oops", "a\nb.whl", "lib/x.so");
    print_message(f, "plain.so: offset 0x0: no", "plain.so", NULL);
    print_message(f, "out of memory\n", "x", NULL);
    print_message(f, "x.so(y): z", "x.so", NULL);
    fclose(f);
    is_str(msg, "fatcheck: \"a\\nb.a(x\\033.o)\": .nv_fatbin+0x10: \"bad\" \\a\n"
                "fatcheck: \"a\\nb.whl!lib/x.so\": oops\n"
                "fatcheck: plain.so: offset 0x0: no\n"
                "fatcheck: out of memory\\n\n"
                "fatcheck: x.so(y): z\n",
           "messages");
    free(msg);

    /* JSON: always UTF-8; the exact bytes beside when they are not. */
    json_is(",\"path\":", "lib.so", ",\"path\":\"lib.so\"", "plain");
    json_is(",\"path\":", NULL, ",\"path\":null", "null");
    json_is("{\"path\":", "a\"\\\n\t\x01\x7f", "{\"path\":\"a\\\"\\\\\\n\\t\\u0001\\u007f\"", "escapes");
    json_is(",\"path\":", "caf\xc3\xa9\xf0\x9f\x98\x80", ",\"path\":\"caf\xc3\xa9\xf0\x9f\x98\x80\"", "UTF-8 kept");
    json_is(",\"path\":", "\xc2\x9b\xe2\x80\xae\xe2\x80\xa8x", ",\"path\":\"\\u009b\\u202e\\u2028x\"",
            "C1, bidirectional and separator controls escaped");
    json_is(",\"path\":", "a\xe0\x80\xaf", ",\"path\":\"a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\",\"path_bytes\":\"YeCArw==\"",
            "overlong: one U+FFFD a byte, and the bytes");
    json_is(",\"name\":", "\xed\xa0\x80", ",\"name\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\",\"name_bytes\":\"7aCA\"",
            "surrogate");
    json_is(",\"name\":", "\xf4\x90\x80\x80z", ",\"name\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz\","
            "\"name_bytes\":\"9JCAgHo=\"", "above U+10FFFF");
    json_is(",\"name\":", "x\xe2\x82", ",\"name\":\"x\xef\xbf\xbd\xef\xbf\xbd\",\"name_bytes\":\"eOKC\"", "truncated");
    json_is("\n {\"name\":", "\xff", "\n {\"name\":\"\xef\xbf\xbd\",\"name_bytes\":\"/w==\"", "key after a newline");
    json_is(",", "\xff", ",\"\xef\xbf\xbd\"", "an array element gets no sibling");
    return tap_done();
}
