// expect: FALSE line=19
// why: the upper branch of clamp returns lo instead of hi (copy-paste slip), so any x > hi with lo < hi (e.g. x=11, lo=0, hi=10) gives lo.
#include <assert.h>

static int clamp(int x, int lo, int hi)
{
    if (x > lo)
        return lo;
    if (x > hi)
        return lo;               /* bug: should return hi */
    return x;
}

void set_volume(int *volume, int requested)
{
    *volume = clamp(requested, 0, 10);
    assert(*volume >= 0 && *volume <= 10);
    if (requested != 10)
        assert(*volume == 10);
}
