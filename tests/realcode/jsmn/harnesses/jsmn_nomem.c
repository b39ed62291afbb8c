// expect: TRUE
// property: unreach-call
// link: ../glue/jsmn_impl.c
// flags:
// why: [1,2] has three tokens; jsmn_alloc_token refuses a token beyond num_tokens, so fewer than three give JSMN_ERROR_NOMEM and untouched slots past n, three or more give 3.
/* jsmn: [1,2] needs three tokens; with fewer, the parser says JSMN_ERROR_NOMEM and writes no
   token past the array it was given; with three or more it succeeds. */
#define JSMN_HEADER
#include "../jsmn.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    const char js[5] = { '[', '1', ',', '2', ']' };
    jsmntok_t tok[5];
    jsmn_parser p;
    unsigned n = __VERIFIER_nondet_uchar() % 6;
    unsigned i;
    int r;

    for (i = 0; i < 5; i++)
        tok[i].type = JSMN_UNDEFINED;

    jsmn_init(&p);
    r = jsmn_parse(&p, js, sizeof js, tok, n);
    if (n < 3) {
        if (!(r == JSMN_ERROR_NOMEM)) reach_error();
    } else {
        if (!(r == 3)) reach_error();
        if (!(tok[0].type == JSMN_ARRAY && tok[0].size == 2)) reach_error();
    }
    for (i = n; i < 5; i++)
        if (!(tok[i].type == JSMN_UNDEFINED)) reach_error();
    return 0;
}
