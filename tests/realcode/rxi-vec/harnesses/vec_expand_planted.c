// expect: FALSE
// property: memsafety
// link: ../planted/vec.c
// flags: -I../src
// why: planted/vec.c grows only when length > capacity (was length + 1 > capacity), so a push into a full vector -- the very first push, into capacity 0 with data NULL -- stores past the block.
// input: 01
/* PLANTED BUG in the linked copy of vec.c (see why:). rxi/vec: push 0-4 arbitrary ints and
   free the vector. */
#include "../src/vec.h"

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    vec_int_t v;
    int n = __VERIFIER_nondet_uchar() % 5;
    int i;

    vec_init(&v);
    for (i = 0; i < n; i++)
        vec_push(&v, __VERIFIER_nondet_int());
    vec_deinit(&v);
    return 0;
}
