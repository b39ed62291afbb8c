// expect: TRUE
// property: unreach-call
// link: ../base64.c
// flags:
// why: base64_test.c (upstream) checks three known answers, "fo", "foobar" and a 269-byte text with newlines, and they pass (it prints PASSED natively); its base64_test() result becomes the assertion.
/* crypto-algorithms' own Base64 test program. Upstream it only prints PASSED or FAILED;
   here its main is renamed and base64_test()'s result is asserted. */
#define main base64_upstream_main
#include "../base64_test.c"
#undef main

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void)
{
    if (!base64_test())
        reach_error();
    return 0;
}
