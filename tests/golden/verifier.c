#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
extern void __VERIFIER_assert(int);
extern int external_f(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned short h = __VERIFIER_nondet_ushort();
  __VERIFIER_assume(x > 0 && x < 100);
  if (h == 7) abort();
  if (x == 42) exit(0);
  assert(x != 50);
  __VERIFIER_assert(h != 3);
  x = external_f(x);
  if (x == 1) reach_error();
  return 0;
}
