// expect: FALSE
// property: memsafety
// link: ../planted/ini.c
// flags: -I.. -DINI_MAX_LINE=8
// why: planted/ini.c's ini_reader_string copies while num > 0 (was num > 1), so a line of 8 or more bytes fills all 8 bytes of the line buffer and the terminating NUL goes one past it.
// input: 0800000000000000
/* PLANTED BUG in the linked copy of ini.c (see why:). inih: ini_parse_string on 0-10
   characters of "a", "=", "\n" with an 8-byte line buffer. */
#include "../ini.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

static const char alphabet[] = {'a', '=', '\n'};

static int handler(void *user, const char *section, const char *name, const char *value)
{
    (void)user; (void)section; (void)name; (void)value;
    return 1;
}

int main(void)
{
    char text[11];
    size_t len = __VERIFIER_nondet_uchar() % 11, i;

    for (i = 0; i < len; i++)
        text[i] = alphabet[__VERIFIER_nondet_uchar() % 3];
    text[len] = '\0';
    (void)ini_parse_string(text, handler, NULL);
    return 0;
}
