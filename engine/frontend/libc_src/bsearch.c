/* glibc's bsearch (bits/stdlib-bsearch.h), comparison for comparison: which of several equal
   elements it finds is glibc's. */
#include <stddef.h>
void *bsearch(const void *key, const void *base, size_t nmemb, size_t size,
              int (*compar)(const void *, const void *))
{
    size_t l = 0, u = nmemb;
    while (l < u) {
        size_t idx = (l + u) / 2;
        const void *p = (const void *)((const char *)base + idx * size);
        int comparison = (*compar)(key, p);
        if (comparison < 0)
            u = idx;
        else if (comparison > 0)
            l = idx + 1;
        else
            return (void *)p;
    }
    return NULL;
}
