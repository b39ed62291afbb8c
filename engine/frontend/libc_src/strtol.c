/* glibc's strtol in the "C" locale (the parse: __cbam_strto.c): out of range is LONG_MAX or
   LONG_MIN with errno ERANGE. */
#include <errno.h>
#include <limits.h>
unsigned long __cbam_strto(const char *nptr, char **endptr, int base, unsigned long limit, unsigned long limit_negative,
                           int *negative, int *overflow);
long strtol(const char *nptr, char **endptr, int base)
{
    int negative, overflow;
    unsigned long v = __cbam_strto(nptr, endptr, base, LONG_MAX, (unsigned long)LONG_MAX + 1, &negative, &overflow);
    if (overflow) {
        errno = ERANGE;
        return negative ? LONG_MIN : LONG_MAX;
    }
    return negative ? (long)(0 - v) : (long)v;
}
