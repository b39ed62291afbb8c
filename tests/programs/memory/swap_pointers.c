// expect: TRUE
// why: swap exchanges the two pointees (the parameters are distinct objects, and in sort3 the indices are distinct), so values are exchanged and the sorting network yields an ordered permutation.
#include <assert.h>

static void swap(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

void swap_params(int *p, int *q)
{
    int x = *p;
    int y = *q;

    swap(p, q);
    assert(*p == y && *q == x);
    swap(p, q);
    assert(*p == x && *q == y);
}

void sort3(int a, int b, int c)
{
    int v[3];

    v[0] = a;
    v[1] = b;
    v[2] = c;
    if (v[0] > v[1])
        swap(&v[0], &v[1]);
    if (v[1] > v[2])
        swap(&v[1], &v[2]);
    if (v[0] > v[1])
        swap(&v[0], &v[1]);
    assert(v[0] <= v[1] && v[1] <= v[2]);
    assert(v[0] == a || v[0] == b || v[0] == c);
    assert(v[2] == a || v[2] == b || v[2] == c);
}
