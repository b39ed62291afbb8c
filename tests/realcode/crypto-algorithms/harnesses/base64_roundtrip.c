// expect: TRUE
// property: unreach-call
// link: ../base64.c
// flags:
// why: for 1-3 arbitrary bytes base64_encode writes 4 characters (as many as it predicts with out == NULL) and base64_decode, which drops the '=' padding, inverts each 6-bit split exactly, so the bytes come back.
/* base64: encode then decode gives the input back, and both size queries (out == NULL) agree
   with what is written. (Decoding the empty string is left out: see base64_decode_empty.c.) */
#include <string.h>
#include "../base64.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    BYTE in[3], code[8], back[4];
    size_t len = 1 + __VERIFIER_nondet_uchar() % 3;
    size_t i, n, m;

    for (i = 0; i < len; i++)
        in[i] = __VERIFIER_nondet_uchar();
    n = base64_encode(in, code, len, 0);
    if (!(n == 4)) reach_error();
    if (!(n == base64_encode(in, NULL, len, 0))) reach_error();
    m = base64_decode(code, back, n);
    if (!(m == len)) reach_error();
    if (!(m == base64_decode(code, NULL, n))) reach_error();
    for (i = 0; i < len; i++)
        if (!(back[i] == in[i])) reach_error();
    return 0;
}
