// expect: TRUE
// property: unreach-call
// link:
// flags:
// why: jsmn's own test suite (test/tests.c, upstream) passes: its main returns test_failed > 0, which is 0 with this jsmn.h, so reach_error is not called.
/* jsmn's upstream test program (test/tests.c, which includes the implementation through
   testutil.h), run as is; its exit status (1 if any test failed) becomes an assertion. */
#define main jsmn_upstream_main
#include "../test/tests.c"
#undef main

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void)
{
    if (jsmn_upstream_main() != 0)
        reach_error();
    return 0;
}
