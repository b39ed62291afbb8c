/* Proven safe: fib(10) is 55, and the lock is only released when it was taken. */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int fib(int n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}

int main(void) {
  int use_lock = __VERIFIER_nondet_int();
  int locked = 0;
  if (use_lock) {
    locked = 1;
  }
  int r = fib(10);
  if (use_lock) {
    assert(locked == 1);
    locked = 0;
  }
  assert(r == 55);
  return 0;
}
