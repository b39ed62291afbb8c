/* glibc's abs: undefined for INT_MIN (the negation overflows), which cbam's signed arithmetic
   makes any value. */
int abs(int x) { return x < 0 ? -x : x; }
