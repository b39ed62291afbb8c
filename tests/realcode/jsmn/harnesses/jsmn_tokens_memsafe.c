// expect: TRUE
// property: memsafety
// link: ../glue/jsmn_impl.c
// flags:
// why: jsmn reads js[i] only for i < len and jsmn_alloc_token never hands out a slot at or past num_tokens, so exact-size heap buffers for the text (up to 6 bytes) and the tokens (0-4) are never overrun.
/* jsmn with the text and the token array each in a heap block of exactly the size the caller
   states, so that any read past the text or write past the tokens is an invalid dereference. */
#include <stdlib.h>
#define JSMN_HEADER
#include "../jsmn.h"

extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    unsigned len = __VERIFIER_nondet_uchar() % 7;
    unsigned ntok = __VERIFIER_nondet_uchar() % 5;
    char *js = malloc(len ? len : 1);
    jsmntok_t *tok = malloc(ntok ? ntok * sizeof *tok : 1);
    jsmn_parser p;
    unsigned i;

    if (!js || !tok)
        return 0;
    for (i = 0; i < len; i++)
        js[i] = __VERIFIER_nondet_char();
    jsmn_init(&p);
    (void)jsmn_parse(&p, js, len, tok, ntok);
    free(tok);
    free(js);
    return 0;
}
