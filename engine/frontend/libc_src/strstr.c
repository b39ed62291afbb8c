/* glibc's strstr: the first place needle occurs in haystack (haystack itself for ""), or NULL. */
#include <stddef.h>
char *strstr(const char *haystack, const char *needle)
{
    if (*needle == '\0')
        return (char *)haystack;
    for (; *haystack != '\0'; haystack++) {
        size_t i = 0;
        while (needle[i] != '\0' && haystack[i] == needle[i])
            i++;
        if (needle[i] == '\0')
            return (char *)haystack;
    }
    return NULL;
}
