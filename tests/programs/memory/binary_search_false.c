// expect: FALSE line=29
// why: the loop condition lo < hi exits before examining the last candidate, so some members are never found: k = 0, 3, 6 or 9 (e.g. k=0, key 2) returns -1.
#include <assert.h>

#define N 10

static const int table[N] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};

static int find(int key)
{
    int lo = 0, hi = N - 1;

    while (lo < hi) {           /* bug: should be lo <= hi */
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

void lookup_member(int k)
{
    if (k < 0 || k >= N)
        return;
    assert(find(table[k]) == k);
}
