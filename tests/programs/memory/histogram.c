// expect: TRUE
// why: every byte is counted exactly once in the 256-entry table (indexed through unsigned char, so always in range), hence the counts sum to 16 and each byte's own bucket is positive.
#include <assert.h>

#define LEN 16

void byte_histogram(char *buf)
{
    int counts[256];
    int i, total = 0;

    for (i = 0; i < 256; i++)
        counts[i] = 0;
    for (i = 0; i < LEN; i++)
        counts[(unsigned char)buf[i]]++;
    for (i = 0; i < 256; i++)
        total += counts[i];
    assert(total == LEN);
    for (i = 0; i < LEN; i++)
        assert(counts[(unsigned char)buf[i]] >= 1);
}

void score_buckets(int a[16])
{
    int buckets[10] = {0};
    int i, used = 0, total = 0;

    for (i = 0; i < 16; i++) {
        if (a[i] < 0 || a[i] > 99)
            continue;
        buckets[a[i] / 10]++;
        used++;
    }
    for (i = 0; i < 10; i++)
        total += buckets[i];
    assert(total == used);
    assert(used <= 16);
}
