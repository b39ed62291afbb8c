/* glibc's strpbrk: the first byte of s that is in accept, or NULL. */
#include <stddef.h>
char *strpbrk(const char *s, const char *accept)
{
    for (; *s != '\0'; s++)
        for (const char *a = accept; *a != '\0'; a++)
            if (*a == *s)
                return (char *)s;
    return NULL;
}
