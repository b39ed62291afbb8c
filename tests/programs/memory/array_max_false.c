// expect: FALSE line=34
// why: max starts at 0 instead of a[0], so when all N inputs are negative (e.g. all -1) the result 0 is not an element of the array.
#include <assert.h>

#define N 4

extern int __VERIFIER_nondet_int(void);

static int array_max(const int *a, int n)
{
    int i;
    int best = 0;               /* bug: should be a[0] */

    for (i = 0; i < n; i++)
        if (a[i] > best)
            best = a[i];
    return best;
}

void check_max(void)
{
    int a[N];
    int i, m;
    int found = 0;

    for (i = 0; i < N; i++)
        a[i] = __VERIFIER_nondet_int();
    m = array_max(a, N);
    for (i = 0; i < N; i++) {
        assert(a[i] <= m);
        if (a[i] == m)
            found = 1;
    }
    assert(found);
}
