// expect: TRUE
// why: min and max start at a[0] and every element is compared, so lo <= a[i] <= hi for all i and both are elements of the array.
#include <assert.h>

#define N 8

extern int __VERIFIER_nondet_int(void);

static void min_max(const int *a, int n, int *min, int *max)
{
    int i;

    *min = a[0];
    *max = a[0];
    for (i = 1; i < n; i++) {
        if (a[i] < *min)
            *min = a[i];
        if (a[i] > *max)
            *max = a[i];
    }
}

void check_min_max(void)
{
    int a[N];
    int i, lo, hi;
    int found_lo = 0, found_hi = 0;

    for (i = 0; i < N; i++)
        a[i] = __VERIFIER_nondet_int();
    min_max(a, N, &lo, &hi);
    for (i = 0; i < N; i++) {
        assert(lo <= a[i]);
        assert(a[i] <= hi);
        if (a[i] == lo)
            found_lo = 1;
        if (a[i] == hi)
            found_hi = 1;
    }
    assert(found_lo && found_hi);
}

int count_at_least(int a[16], int t)
{
    int i, n = 0;

    for (i = 0; i < 16; i++)
        if (a[i] >= t)
            n++;
    assert(n >= 0 && n <= 16);
    return n;
}
