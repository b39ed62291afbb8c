// expect: FALSE
// property: unreach-call
// link: ../glue/jsmn_impl.c
// flags:
// why: the harness's belief is wrong: the JSON text "" is one string token whose start equals its end.
// input: 022222
/* PLANTED BUG (a false belief about the API): asserts that every string token is non-empty.
   JSON allows "" (a string token with start == end), so this fails, e.g. for the input "". */
#define JSMN_HEADER
#include "../jsmn.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    char js[4];
    jsmntok_t tok[4];
    jsmn_parser p;
    unsigned len = __VERIFIER_nondet_uchar() % 5;
    unsigned i;
    int r;

    for (i = 0; i < len; i++)
        js[i] = __VERIFIER_nondet_char();

    jsmn_init(&p);
    r = jsmn_parse(&p, js, len, tok, 4);
    for (i = 0; (int)i < r; i++)
        if (tok[i].type == JSMN_STRING)
            if (!(tok[i].end > tok[i].start)) reach_error();
    return 0;
}
