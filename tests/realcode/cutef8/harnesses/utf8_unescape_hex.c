// expect: TRUE
// property: unreach-call
// link: ../utf8.c
// flags:
// why: u8_unescape hands "\xHH" to u8_read_escape_sequence, which takes the two hex digits, converts them with strtol(.., 16) and returns 3, and then writes the u8_charlen(HH)-byte UTF-8 encoding of that value and a NUL into the 8-byte buffer.
/* cutef8: unescape "\xHH" for arbitrary hex digits H (of 0-9, a-f, A-F) and check the
   UTF-8 it produces. */
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include "../utf8.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

static const char digits[] = "0123456789abcdefABCDEF";

static unsigned value(char c)
{
    return c <= '9' ? (unsigned)(c - '0') : c <= 'F' ? (unsigned)(c - 'A' + 10) : (unsigned)(c - 'a' + 10);
}

int main(void)
{
    char src[5] = {'\\', 'x', '0', '0', '\0'};
    char buf[8];
    uint32_t v;
    size_t n, i = 0;

    src[2] = digits[__VERIFIER_nondet_uchar() % 22];
    src[3] = digits[__VERIFIER_nondet_uchar() % 22];
    v = value(src[2]) * 16 + value(src[3]);
    n = u8_unescape(buf, sizeof buf, src);
    if (!(n == u8_charlen(v))) reach_error();
    if (!(buf[n] == '\0')) reach_error();
    if (v != 0 && !(u8_nextchar(buf, &i) == v && i == n)) reach_error();
    return 0;
}
