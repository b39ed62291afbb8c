// expect: TRUE
// property: unreach-call
// link: ../glue/jsmn_impl.c
// flags:
// why: a fixed object {"a":D} or {"a": D} is valid JSON and jsmn returns its three tokens with these offsets and sizes for each of the 20 inputs.
/* jsmn: {"a":X} with X an arbitrary digit, optionally with a space after the colon, parses
   into exactly the three expected tokens. */
#define JSMN_HEADER
#include "../jsmn.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    char js[8] = { '{', '"', 'a', '"', ':', ' ', '0', '}' };
    jsmntok_t tok[4];
    jsmn_parser p;
    unsigned char space = __VERIFIER_nondet_uchar() & 1;
    char digit = (char)('0' + __VERIFIER_nondet_uchar() % 10);
    unsigned len;
    int v;
    int r;

    if (space) {
        js[6] = digit;
        len = 8;
    } else {
        js[5] = digit;
        js[6] = '}';
        len = 7;
    }
    v = 5 + space; /* where the value is */

    jsmn_init(&p);
    r = jsmn_parse(&p, js, len, tok, 4);
    if (!(r == 3)) reach_error();
    if (!(tok[0].type == JSMN_OBJECT && tok[0].start == 0 && tok[0].end == (int)len && tok[0].size == 1)) reach_error();
    if (!(tok[1].type == JSMN_STRING && tok[1].start == 2 && tok[1].end == 3 && tok[1].size == 1)) reach_error();
    if (!(tok[2].type == JSMN_PRIMITIVE && tok[2].start == v && tok[2].end == v + 1 && tok[2].size == 0)) reach_error();
    if (!(js[tok[2].start] == digit)) reach_error();
    return 0;
}
