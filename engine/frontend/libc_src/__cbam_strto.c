/* The parse glibc's strtol and strtoul share, in the "C" locale: white space, a sign,
   "0x"/"0X" for base 16 or 0, a leading 0 for base 0 as octal; digits and letters up to the
   base. Returns the magnitude read; *negative says whether a minus sign came first, *overflow
   whether the magnitude exceeds the limit for its sign (all digits are read still). *endptr is
   after the last digit read, or nptr when there was none ("0x" with no hex digit after it
   reads the 0). A base other than 0 and 2..36 sets errno EINVAL and returns 0, *endptr
   untouched. */
#include <errno.h>
#include <stddef.h>
unsigned long __cbam_strto(const char *nptr, char **endptr, int base, unsigned long limit, unsigned long limit_negative,
                           int *negative, int *overflow)
{
    const char *s = nptr;
    *negative = 0;
    *overflow = 0;
    if (base < 0 || base == 1 || base > 36) {
        errno = EINVAL;
        return 0;
    }
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    if (*s == '-') {
        *negative = 1;
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
    if (*negative)
        limit = limit_negative;
    unsigned long v = 0;
    int any = 0;
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
        if (*overflow || v > (limit - (unsigned long)d) / (unsigned long)base)
            *overflow = 1;
        else
            v = v * (unsigned long)base + (unsigned long)d;
    }
    if (endptr)
        *endptr = (char *)(any ? s : nptr);
    return v;
}
