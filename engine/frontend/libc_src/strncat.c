/* glibc's strncat: at most n bytes of src after dst's string, then a NUL. */
#include <stddef.h>
char *strncat(char *dst, const char *src, size_t n)
{
    char *end = dst;
    while (*end != '\0')
        end++;
    size_t i = 0;
    for (; i < n && src[i] != '\0'; i++)
        end[i] = src[i];
    end[i] = '\0';
    return dst;
}
