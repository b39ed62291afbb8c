// expect: FALSE
// property: memsafety
// link: ../utf8.c
// flags:
// why: an upstream bug: with room for more characters than the text has (sz = srcsz + 1, which its comment recommends), u8_toucs loops once more after the last character and reads *src at src + srcsz, one byte past the text (e.g. the text "a").
// input: 0161
/* cutef8: u8_toucs with the destination size its comment recommends (srcsz + 1), on 1-3
   bytes of valid ASCII/UTF-8 held in a heap block of exactly that size. */
#include <stdint.h>
#include <stdlib.h>
#include <stdarg.h>
#include "../utf8.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    size_t len = 1 + __VERIFIER_nondet_uchar() % 3, i;
    char *s = malloc(len);
    uint32_t dest[4];

    if (!s)
        return 0;
    for (i = 0; i < len; i++)
        s[i] = (char)(__VERIFIER_nondet_uchar() & 0x7f); /* ASCII: valid UTF-8 */
    (void)u8_toucs(dest, len + 1, s, len);
    free(s);
    return 0;
}
