// expect: FALSE
// property: memsafety
// link: ../ini.c
// flags: -DINI_MAX_LINE=8
// why: an upstream bug: when a line is too long, ini_parse_stream drains the rest through abyss and reads abyss[strlen(abyss) - 1], which is abyss[-1] when the rest starts with a NUL byte -- possible with ini_parse_string_length (e.g. "aaaaaaa" then NUL).
// input: 08000000000000000b
/* inih: ini_parse_string_length on 0-10 arbitrary characters of "a", "=", "\n" and NUL (a
   length-delimited buffer may hold NUL bytes), with an 8-byte line buffer. */
#include <stdlib.h>
#include "../ini.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

static const char alphabet[] = {'a', '=', '\n', '\0'};

static int handler(void *user, const char *section, const char *name, const char *value)
{
    (void)user; (void)section; (void)name; (void)value;
    return 1;
}

int main(void)
{
    size_t len = __VERIFIER_nondet_uchar() % 11, i;
    char *text = malloc(len ? len : 1);

    if (!text)
        return 0;
    for (i = 0; i < len; i++)
        text[i] = alphabet[__VERIFIER_nondet_uchar() % 4];
    (void)ini_parse_string_length(text, len, handler, NULL);
    free(text);
    return 0;
}
