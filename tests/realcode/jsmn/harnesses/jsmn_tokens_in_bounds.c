// expect: TRUE
// property: unreach-call
// link: ../glue/jsmn_impl.c
// flags:
// why: jsmn only sets start/end to positions it has scanned (< len), closes an object/array token at its bracket and a string at its quote, and a primitive ends after at least one character; unclosed tokens make the parse fail with JSMN_ERROR_PART.
/* jsmn: for arbitrary input of up to 8 bytes, every token of a successful parse lies inside
   the input, is of a known type, and brackets/quotes delimit it where its type says so. */
#define JSMN_HEADER
#include "../jsmn.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    char js[8];
    jsmntok_t tok[8];
    jsmn_parser p;
    unsigned len = __VERIFIER_nondet_uchar() % 9;
    unsigned i;
    int r;

    for (i = 0; i < len; i++)
        js[i] = __VERIFIER_nondet_char();

    jsmn_init(&p);
    r = jsmn_parse(&p, js, len, tok, 8);
    if (r < 0)
        return 0;
    if (!(r <= 8)) reach_error();
    if (!((unsigned)r == p.toknext)) reach_error();
    for (i = 0; i < (unsigned)r; i++) {
        if (!(0 <= tok[i].start && tok[i].start <= tok[i].end && tok[i].end <= (int)len)) reach_error();
        switch (tok[i].type) {
        case JSMN_OBJECT:
            if (!(js[tok[i].start] == '{' && js[tok[i].end - 1] == '}')) reach_error();
            break;
        case JSMN_ARRAY:
            if (!(js[tok[i].start] == '[' && js[tok[i].end - 1] == ']')) reach_error();
            break;
        case JSMN_STRING:
            if (!(tok[i].start >= 1 && js[tok[i].start - 1] == '"')) reach_error();
            if (!(tok[i].end < (int)len && js[tok[i].end] == '"')) reach_error();
            break;
        case JSMN_PRIMITIVE:
            if (!(tok[i].start < tok[i].end)) reach_error();
            break;
        default:
            reach_error();
        }
    }
    return 0;
}
