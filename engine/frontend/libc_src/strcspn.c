/* glibc's strcspn: the length of s's first run of bytes none of which is in reject. */
#include <stddef.h>
size_t strcspn(const char *s, const char *reject)
{
    size_t n = 0;
    for (; s[n] != '\0'; n++) {
        const char *r = reject;
        while (*r != '\0' && *r != s[n])
            r++;
        if (*r != '\0')
            break;
    }
    return n;
}
