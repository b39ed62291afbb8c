// expect: FALSE
// property: memsafety
// link: ../src/vec.c
// flags:
// why: the harness's drain loop runs while length >= 0, so it pops once more at length 0 and vec_pop reads data[-1]: before the heap block, or through a NULL data pointer when nothing was pushed.
// input: 00
/* A caller's off-by-one: drain a vector of 0-3 ints with "while (v.length >= 0)". */
#include "../src/vec.h"

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    vec_int_t v;
    int n = __VERIFIER_nondet_uchar() % 4;
    int i, sum = 0;

    vec_init(&v);
    for (i = 0; i < n; i++)
        vec_push(&v, __VERIFIER_nondet_int());
    while (v.length >= 0)
        sum += vec_pop(&v);
    vec_deinit(&v);
    (void)sum;
    return 0;
}
