// expect: FALSE
// property: memsafety
// link: ../glue/jsmn_impl.c
// flags:
// why: the harness passes sizeof tok (32 bytes) as the token count of a 2-token array, so a text with 3 tokens such as [1,2] makes jsmn write tok[2], past the stack array.
// input: 055b312c325d
/* A caller's bug that jsmn cannot see: num_tokens is the array's size in bytes, not its
   length. Inputs needing at most two tokens are fine; [1,2] (three tokens) overflows tok. */
#define JSMN_HEADER
#include "../jsmn.h"

extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    char js[5];
    jsmntok_t tok[2];
    jsmn_parser p;
    unsigned len = __VERIFIER_nondet_uchar() % 6;
    unsigned i;

    for (i = 0; i < len; i++)
        js[i] = __VERIFIER_nondet_char();
    jsmn_init(&p);
    (void)jsmn_parse(&p, js, len, tok, sizeof tok);
    return 0;
}
