// expect: TRUE
// property: unreach-call
// link: ../src/vec.c
// flags: -I../src
// why: rxi/vec's own test program (test/test_vec.c, upstream) reports 55 passed, 0 failed natively; its fail_count becomes the assertion.
/* rxi/vec's own test program. Upstream it counts and prints PASS/FAIL lines; here its main
   is renamed and fail_count == 0 is asserted. It pushes up to 1000 elements and calls
   qsort with a comparison function. */
#define main vec_upstream_main
#include "../test/test_vec.c"
#undef main

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void)
{
    vec_upstream_main();
    if (fail_count != 0)
        reach_error();
    return 0;
}
