// expect: TRUE
// property: unreach-call
// link: ../aes.c
// flags:
// why: tiny-AES-c's own test program (test.c, upstream) checks the NIST SP 800-38A AES-128 vectors for CBC, CTR and ECB and returns the number of failures, which is 0 natively (all six print SUCCESS); that count becomes the assertion.
/* tiny-AES-c's own test program, main renamed; its exit status (the number of failed
   known-answer tests) is asserted to be 0. */
#define main aes_upstream_main
#include "../test.c"
#undef main

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void)
{
    if (aes_upstream_main() != 0)
        reach_error();
    return 0;
}
