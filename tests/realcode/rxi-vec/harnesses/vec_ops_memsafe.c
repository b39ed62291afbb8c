// expect: TRUE
// property: memsafety
// link: ../src/vec.c
// flags:
// why: each operation is called within its contract (indices < length, start + count <= length), vec_expand_/vec_reserve_ grow the block before any store past capacity, vec_compact_ frees an empty vector's block, and vec_deinit frees the rest.
/* rxi/vec: an arbitrary sequence of 5 operations (push, pop, insert, splice, swapsplice,
   swap, reserve, compact) on a vector of ints, each with in-contract arguments, then
   vec_deinit: no invalid access, nothing leaked. */
#include "../src/vec.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    vec_int_t v;
    int step, a, b;

    vec_init(&v);
    for (step = 0; step < 5; step++) {
        unsigned char op = __VERIFIER_nondet_uchar() % 8;
        a = __VERIFIER_nondet_uchar();
        b = __VERIFIER_nondet_uchar();
        switch (op) {
        case 0:
            vec_push(&v, a);
            break;
        case 1:
            if (v.length > 0)
                (void)vec_pop(&v);
            break;
        case 2:
            (void)vec_insert(&v, a % (v.length + 1), b);
            break;
        case 3:
            if (v.length > 0) {
                a %= v.length;
                vec_splice(&v, a, b % (v.length - a + 1));
            }
            break;
        case 4:
            if (v.length > 0) {
                b %= v.length + 1;
                vec_swapsplice(&v, (v.length - b) * (a & 1), b); /* at the start or the end */
            }
            break;
        case 5:
            if (v.length > 0)
                vec_swap(&v, a % v.length, b % v.length);
            break;
        case 6:
            (void)vec_reserve(&v, a % 9);
            break;
        default:
            (void)vec_compact(&v);
            break;
        }
    }
    vec_deinit(&v);
    return 0;
}
