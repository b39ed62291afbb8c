// expect: TRUE
// why: my_abs is only called with x > INT_MIN, abs_diff and clamp work on guarded ranges, and results are written through out-pointers to distinct locals, so no overflow occurs and all bounds hold.
#include <assert.h>
#include <limits.h>

static int my_abs(int x)
{
    return x < 0 ? -x : x;
}

static int abs_diff(int a, int b)
{
    return a > b ? a - b : b - a;
}

static int clamp(int x, int lo, int hi)
{
    if (x < lo)
        return lo;
    if (x > hi)
        return hi;
    return x;
}

static void split_sign(int x, int *sign, int *mag)
{
    *sign = x < 0 ? -1 : (x > 0 ? 1 : 0);
    *mag = my_abs(x);
}

void check_abs(int x)
{
    int s, m;

    if (x == INT_MIN)
        return;
    assert(my_abs(x) >= 0);
    assert(my_abs(x) == my_abs(-x));
    split_sign(x, &s, &m);
    assert(s * m == x);
}

void check_diff_clamp(int a, int b, int x)
{
    int c;

    if (a < -10000 || a > 10000 || b < -10000 || b > 10000)
        return;
    assert(abs_diff(a, b) == abs_diff(b, a));
    assert(abs_diff(a, b) >= 0 && abs_diff(a, b) <= 20000);
    if (a > b)
        return;
    c = clamp(x, a, b);
    assert(a <= c && c <= b);
    if (x >= a && x <= b)
        assert(c == x);
}
