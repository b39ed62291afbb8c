// expect: TRUE
// property: unreach-call
// link: ../src/vec.c
// flags:
// why: vec_push stores at data[length++] after vec_expand_ doubles the capacity (1, 2, 4, 8) whenever it is full, and vec_pop reads data[--length], so up to 6 pushed values come back in reverse order with a power-of-two capacity >= length.
/* rxi/vec: push an arbitrary number (0-6) of arbitrary ints, check length and capacity,
   pop them all back in reverse order. */
#include "../src/vec.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    vec_int_t v;
    int vals[6];
    int n = __VERIFIER_nondet_uchar() % 7;
    int i;

    vec_init(&v);
    for (i = 0; i < n; i++) {
        vals[i] = __VERIFIER_nondet_int();
        if (!(vec_push(&v, vals[i]) == 0)) reach_error();
    }
    if (!(v.length == n)) reach_error();
    if (!(v.capacity >= v.length)) reach_error();
    if (!((v.capacity & (v.capacity - 1)) == 0)) reach_error();
    if (n > 0 && !(vec_last(&v) == vals[n - 1] && vec_first(&v) == vals[0])) reach_error();
    for (i = n - 1; i >= 0; i--)
        if (!(vec_pop(&v) == vals[i])) reach_error();
    if (!(v.length == 0)) reach_error();
    vec_deinit(&v);
    return 0;
}
