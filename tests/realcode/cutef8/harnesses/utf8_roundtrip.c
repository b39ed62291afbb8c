// expect: TRUE
// property: unreach-call
// link: ../utf8.c
// flags:
// why: u8_wc_toutf8 writes the standard 1-4 byte encoding of any code point 1..0x10FFFF (u8_charlen bytes, lead byte's trailing count as u8_seqlen reads it, never overlong, so u8_isvalid accepts it), and u8_nextchar sums the bytes and subtracts offsetsFromUTF8[len-1], giving the code point back.
/* cutef8: encode an arbitrary code point, then check length, validity, decoding and the
   character count of the one-character string. */
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include "../utf8.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

int main(void)
{
    uint32_t ch = __VERIFIER_nondet_uint();
    char buf[5] = {0, 0, 0, 0, 0};
    size_t n, i = 0;

    __VERIFIER_assume(ch >= 1 && ch <= 0x10FFFF);
    n = u8_wc_toutf8(buf, ch);
    if (!(n >= 1 && n <= 4 && n == u8_charlen(ch))) reach_error();
    if (!(u8_seqlen(buf) == n)) reach_error();
    if (!(u8_isvalid(buf, n) == (ch < 0x80 ? 1 : 2))) reach_error();
    if (!(u8_nextchar(buf, &i) == ch && i == n)) reach_error();
    if (!(u8_strlen(buf) == 1)) reach_error();
    return 0;
}
