/* glibc's strtol in the "C" locale: white space, a sign, "0x"/"0X" for base 16 or 0, a
   leading 0 for base 0 as octal; digits and letters up to the base; out of range: LONG_MAX or
   LONG_MIN with errno ERANGE. *endptr is after the last digit read, or nptr when there was
   none ("0x" with no hex digit after it reads the 0); a base other than 0 and 2..36 sets
   errno EINVAL and returns 0, *endptr untouched. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
long strtol(const char *nptr, char **endptr, int base)
{
    const char *s = nptr;
    if (base < 0 || base == 1 || base > 36) {
        errno = EINVAL;
        return 0;
    }
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    int negative = 0;
    if (*s == '-') {
        negative = 1;
        s++;
    } else if (*s == '+') {
        s++;
    }
    if (*s == '0') {
        if ((base == 0 || base == 16) && (s[1] == 'x' || s[1] == 'X')) {
            int d = s[2];
            if ((d >= '0' && d <= '9') || (d >= 'a' && d <= 'f') || (d >= 'A' && d <= 'F')) {
                s += 2;
                base = 16;
            } else if (base == 0) {
                base = 8;
            }
        } else if (base == 0) {
            base = 8;
        }
    } else if (base == 0) {
        base = 10;
    }
    unsigned long limit = negative ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
    unsigned long v = 0;
    int any = 0, overflow = 0;
    for (;; s++) {
        int c = *s, d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'z')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'Z')
            d = c - 'A' + 10;
        else
            break;
        if (d >= base)
            break;
        any = 1;
        if (overflow || v > (limit - (unsigned long)d) / (unsigned long)base)
            overflow = 1;
        else
            v = v * (unsigned long)base + (unsigned long)d;
    }
    if (endptr)
        *endptr = (char *)(any ? s : nptr);
    if (overflow) {
        errno = ERANGE;
        return negative ? LONG_MIN : LONG_MAX;
    }
    return negative ? (long)(0 - v) : (long)v;
}
