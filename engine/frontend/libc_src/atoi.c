/* glibc's atoi: (int) strtol(s, NULL, 10) for the value an int holds. Leading white space
   (the "C" locale's), a sign, decimal digits; what does not fit is undefined in C (glibc
   truncates strtol's clamped long): any value. */
extern int __VERIFIER_nondet_int(void);
int atoi(const char *s)
{
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    int negative = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    long long v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (*s - '0');
        if (v > 2147483648LL)
            return __VERIFIER_nondet_int();
    }
    if (negative)
        v = -v;
    if (v > 2147483647LL)
        return __VERIFIER_nondet_int();
    return (int)v;
}
