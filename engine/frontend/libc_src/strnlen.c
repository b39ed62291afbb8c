/* glibc's strnlen: the length of s, reading at most n bytes. */
#include <stddef.h>
size_t strnlen(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] != '\0')
        i++;
    return i;
}
