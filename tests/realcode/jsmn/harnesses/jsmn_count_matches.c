// expect: TRUE
// property: unreach-call
// link: ../glue/jsmn_impl.c
// flags:
// why: with tokens == NULL jsmn counts exactly the tokens it would allocate (same state machine, jsmn_alloc_token only skipped), so a successful parse and the counting parse agree for every input of up to 6 bytes.
/* jsmn: the documented way to size the token array -- parse once with tokens == NULL to
   count them -- gives the count a successful parse with tokens returns. */
#define JSMN_HEADER
#include "../jsmn.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    char js[6];
    jsmntok_t tok[6];
    jsmn_parser p;
    unsigned len = __VERIFIER_nondet_uchar() % 7;
    unsigned i;
    int counted, r;

    for (i = 0; i < len; i++)
        js[i] = __VERIFIER_nondet_char();

    jsmn_init(&p);
    r = jsmn_parse(&p, js, len, tok, 6);
    jsmn_init(&p);
    counted = jsmn_parse(&p, js, len, NULL, 0);
    if (r >= 0) {
        if (!(counted == r)) reach_error();
    }
    return 0;
}
