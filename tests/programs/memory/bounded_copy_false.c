// expect: FALSE line=29
// why: the length guard admits names of CAP characters but copy_bounded keeps only CAP-1 of them, so k=8 yields a 7-character copy.
#include <assert.h>
#include <string.h>

#define CAP 8

static void copy_bounded(char *dst, const char *src)
{
    size_t i;

    for (i = 0; i + 1 < CAP && src[i] != '\0'; i++)
        dst[i] = src[i];
    dst[i] = '\0';
}

void copy_name(int k)
{
    char src[16];
    char dst[CAP];
    int i;

    if (k < 0 || k > CAP)        /* bug: should be k > CAP - 1 */
        return;
    for (i = 0; i < k; i++)
        src[i] = (char)('a' + i);
    src[k] = '\0';
    copy_bounded(dst, src);
    assert(strlen(dst) == (size_t)k);
}
