/* A counterexample: the average of two large unsigned ints wraps around. */
#include <assert.h>

extern unsigned int __VERIFIER_nondet_uint(void);

unsigned int average(unsigned int a, unsigned int b) {
  return (a + b) / 2;
}

int main(void) {
  unsigned int lo = __VERIFIER_nondet_uint();
  unsigned int hi = __VERIFIER_nondet_uint();
  if (lo <= hi) {
    unsigned int mid = average(lo, hi);
    assert(lo <= mid);
  }
  return 0;
}
