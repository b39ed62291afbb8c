/* glibc's strtoul in the "C" locale (the parse: __cbam_strto.c): a minus sign negates the
   value read, modulo ULONG_MAX + 1; out of range is ULONG_MAX with errno ERANGE. */
#include <errno.h>
#include <limits.h>
unsigned long __cbam_strto(const char *nptr, char **endptr, int base, unsigned long limit, unsigned long limit_negative,
                           int *negative, int *overflow);
unsigned long strtoul(const char *nptr, char **endptr, int base)
{
    int negative, overflow;
    unsigned long v = __cbam_strto(nptr, endptr, base, ULONG_MAX, ULONG_MAX, &negative, &overflow);
    if (overflow) {
        errno = ERANGE;
        return ULONG_MAX;
    }
    return negative ? 0 - v : v;
}
