/* glibc's strncpy: at most n bytes of src, the rest of the n filled with NUL (no NUL is
   written when src has n bytes or more before its end). */
#include <stddef.h>
char *strncpy(char *dest, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i] != '\0'; i++)
        dest[i] = src[i];
    for (; i < n; i++)
        dest[i] = '\0';
    return dest;
}
