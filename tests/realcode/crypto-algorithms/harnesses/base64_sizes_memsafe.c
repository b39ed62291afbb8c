// expect: TRUE
// property: memsafety
// link: ../base64.c
// flags:
// why: for 1-5 input bytes base64_encode(NULL) predicts exactly what base64_encode writes (no newline below 57 bytes) and base64_decode(NULL) exactly what base64_decode writes, so buffers of those sizes are never overrun and both are freed.
/* base64: the documented way to size the output -- ask with out == NULL, allocate exactly
   that -- for encoding and then for decoding what was encoded; newline_flag arbitrary. */
#include <stdlib.h>
#include "../base64.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    size_t len = 1 + __VERIFIER_nondet_uchar() % 5;
    int newline = __VERIFIER_nondet_uchar() & 1;
    BYTE *in = malloc(len), *code, *back;
    size_t i, n, m;

    if (!in)
        return 0;
    for (i = 0; i < len; i++)
        in[i] = __VERIFIER_nondet_uchar();
    n = base64_encode(in, NULL, len, newline);
    code = malloc(n);
    if (code) {
        base64_encode(in, code, len, newline);
        m = base64_decode(code, NULL, n);
        back = malloc(m);
        if (back) {
            base64_decode(code, back, n);
            free(back);
        }
        free(code);
    }
    free(in);
    return 0;
}
