// expect: TRUE
// why: the search keeps the invariant that the key can only lie in table[lo..hi] with 0 <= lo, hi < N, so a returned index always holds the key and every table element is found at its own index.
#include <assert.h>

#define N 10

static const int table[N] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};

static int find(int key)
{
    int lo = 0, hi = N - 1;

    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (table[mid] == key)
            return mid;
        if (table[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

void lookup_any(int key)
{
    int i = find(key);

    if (i >= 0)
        assert(i < N && table[i] == key);
}

void lookup_member(int k)
{
    if (k < 0 || k >= N)
        return;
    assert(find(table[k]) == k);
}

void lookup_absent(int key)
{
    if (key < 30 && key % 2 != 0)
        return;
    if (key == 2)
        return;
    assert(find(key) == -1);
}
