// expect: FALSE
// property: memsafety
// link: ../base64.c
// flags:
// why: base64_decode reads in[len - 1] before looking at len, so decoding the empty string (or "=", after it drops the '=') reads the byte before the input buffer: an upstream bug, not a planted one.
// input: 00
/* base64: decode an arbitrary string of 0-4 characters of the base64 alphabet (and '='),
   held in a heap block of exactly its length. The empty string, a valid encoding (of
   nothing), makes base64_decode read in[-1]. */
#include <stdlib.h>
#include "../base64.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

int main(void)
{
    size_t len = __VERIFIER_nondet_uchar() % 5;
    BYTE *in = malloc(len ? len : 1);
    BYTE out[3];
    size_t i;

    if (!in)
        return 0;
    for (i = 0; i < len; i++)
        in[i] = (BYTE)alphabet[__VERIFIER_nondet_uchar() % 65];
    (void)base64_decode(in, out, len);
    free(in);
    return 0;
}
