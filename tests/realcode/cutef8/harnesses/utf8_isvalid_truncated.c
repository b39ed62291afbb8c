// expect: FALSE
// property: memsafety
// link: ../utf8.c
// flags:
// why: an upstream bug: u8_isvalid checks the trailing-byte count against the whole length, not what is left after p, so a lead byte in the last position (e.g. the 1-byte string C3) makes it read the byte after the buffer.
// input: 01c3
/* cutef8: u8_isvalid -- the routine meant for untrusted input -- on 0-4 arbitrary bytes held
   in a heap block of exactly that size. */
#include <stdint.h>
#include <stdlib.h>
#include <stdarg.h>
#include "../utf8.h"

extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    size_t len = __VERIFIER_nondet_uchar() % 5, i;
    char *s = malloc(len ? len : 1);

    if (!s)
        return 0;
    for (i = 0; i < len; i++)
        s[i] = __VERIFIER_nondet_char();
    (void)u8_isvalid(s, len);
    free(s);
    return 0;
}
