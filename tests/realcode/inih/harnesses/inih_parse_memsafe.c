// expect: TRUE
// property: memsafety
// link: ../ini.c
// flags: -DINI_MAX_LINE=8
// why: ini_reader_string copies at most num - 1 bytes plus a NUL into the 8-byte line buffer and reads only the num_left bytes it was given, lines too long are drained through abyss, and section/name copies are bounded by ini_strncpy0, so no access leaves its buffer for any 0-10 byte text without NUL bytes.
/* inih: ini_parse_string_length on 0-10 arbitrary characters from "[]=:;# \t\r\na" held in a
   heap block of exactly that size (no terminating NUL), with an 8-byte line buffer so that
   too-long lines are exercised too. */
#include <stdlib.h>
#include "../ini.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

static const char alphabet[] = "[]=:;# \t\r\na";

static int handler(void *user, const char *section, const char *name, const char *value)
{
    (*(int *)user) += section[0] + name[0] + value[0];
    return 1;
}

int main(void)
{
    size_t len = __VERIFIER_nondet_uchar() % 11, i;
    char *text = malloc(len ? len : 1);
    int sum = 0;

    if (!text)
        return 0;
    for (i = 0; i < len; i++)
        text[i] = alphabet[__VERIFIER_nondet_uchar() % 11];
    (void)ini_parse_string_length(text, len, handler, &sum);
    free(text);
    (void)sum;
    return 0;
}
