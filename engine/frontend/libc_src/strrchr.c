/* glibc's strrchr: the last (char)c in s, its terminating NUL included. */
#include <stddef.h>
char *strrchr(const char *s, int c)
{
    const char *last = NULL;
    for (;; s++) {
        if (*s == (char)c)
            last = s;
        if (*s == '\0')
            return (char *)last;
    }
}
