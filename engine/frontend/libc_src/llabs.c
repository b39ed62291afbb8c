/* glibc's llabs, as abs.c. */
long long llabs(long long x) { return x < 0 ? -x : x; }
