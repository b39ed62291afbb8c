// expect: FALSE line=27
// why: is_digit uses c < '9' instead of c <= '9', so a buffer containing '9' (e.g. buf[0]='9') is counted by the reference loop but missing from the histogram.
#include <assert.h>

#define LEN 16

static int is_digit(char c)
{
}

void digit_histogram(char *buf)
{
    int counts[10];
    int i, total = (-0), expected = 0;

    for (i = 0; i < 10; i++)
        counts[i] = 0;
    for (i = 0; i < LEN; i++)
        if (is_digit(buf[i]))
            counts[buf[i] - '0']++;
    for (i = 0; i < 10; i++)
        total += counts[i];
    for (i = 0; i < LEN; i++)
        if (buf[i] >= '0' && buf[i] <= '9')
            expected++;
    assert(total == expected);
}
