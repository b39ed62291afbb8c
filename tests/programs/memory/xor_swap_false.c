// expect: FALSE line=28
// why: the XOR swap zeroes the element when both pointers alias, which happens when i == j (e.g. i=j=0 with a[0]=5); the saved values are then not exchanged.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

static void xor_swap(int *x, int *y)
{
    *x ^= *y;
    *y ^= *x;
    *x ^= *y;
}

void swap_elements(void)
{
    int a[4];
    int i = __VERIFIER_nondet_int();
    int j = __VERIFIER_nondet_int();
    int k, vi, vj;

    if (i < 0 || i > 3 || j < 0 || j > 3)
        return;
    for (k = 0; k < 4; k++)
        a[k] = __VERIFIER_nondet_int();
    vi = a[i];
    vj = a[j];
    xor_swap(&a[i], &a[j]);
    assert(a[i] == vj && a[j] == vi);
}
