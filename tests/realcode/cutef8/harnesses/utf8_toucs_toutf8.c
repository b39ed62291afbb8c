// expect: TRUE
// property: unreach-call
// link: ../utf8.c
// flags:
// why: u8_toutf8 writes each code point's u8_charlen-byte encoding while the 8-byte buffer has room (two code points need at most 8), and u8_toucs decodes them back; the NUL after the encoded bytes stops u8_toucs at the end (a 0 lead byte has no trailing bytes, src + 0 >= src_end).
/* cutef8: two arbitrary code points (0..0x10FFFF) to UTF-8 and back with the buffer
   conversions u8_toutf8 and u8_toucs. */
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include "../utf8.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void)
{
    uint32_t wcs[2], back[3];
    char buf[9] = {0};
    size_t n, m;

    wcs[0] = __VERIFIER_nondet_uint() % 0x110000;
    wcs[1] = __VERIFIER_nondet_uint() % 0x110000;
    n = u8_toutf8(buf, 8, wcs, 2);
    if (!(n == u8_codingsize(wcs, 2))) reach_error();
    m = u8_toucs(back, 3, buf, n);
    if (!(m == 2 && back[0] == wcs[0] && back[1] == wcs[1])) reach_error();
    return 0;
}
