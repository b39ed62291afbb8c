/* glibc's labs, as abs.c. */
long labs(long x) { return x < 0 ? -x : x; }
