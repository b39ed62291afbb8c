// expect: TRUE
// property: unreach-call
// link: ../sha256.c
// flags:
// why: sha256_test.c (upstream) checks the three FIPS 180-2 vectors ("abc", the 448-bit message, a million 'a's) and they pass (it prints SUCCEEDED natively); its sha256_test() result becomes the assertion.
/* crypto-algorithms' own SHA-256 test program. Upstream it only prints SUCCEEDED or FAILED;
   here its main is renamed and sha256_test()'s result is asserted. Its third vector hashes
   a million bytes (100000 calls): a long run for any verifier. */
#define main sha256_upstream_main
#include "../sha256_test.c"
#undef main

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void)
{
    if (!sha256_test())
        reach_error();
    return 0;
}
