// expect: TRUE
// property: unreach-call
// link: ../src/vec.c
// flags:
// why: vec_insert memmoves data[idx..length) one slot up before storing at idx, and vec_splice memmoves the tail down over [start, start+count), so inserting x at any idx in [0,4] into {10,11,12,13} and splicing it out again restores the vector.
/* rxi/vec: insert an arbitrary value at an arbitrary valid index, check every element, then
   remove it with vec_splice and check again; also vec_find finds it at that index. */
#include "../src/vec.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    vec_int_t v;
    int idx = __VERIFIER_nondet_uchar() % 5;
    int x = __VERIFIER_nondet_int();
    int i, found;

    if (x >= 10 && x <= 13)
        x = -x; /* keep it distinct from the elements, so that vec_find's answer is idx */
    vec_init(&v);
    for (i = 0; i < 4; i++)
        vec_push(&v, 10 + i);
    if (!(vec_insert(&v, idx, x) == 0)) reach_error();
    if (!(v.length == 5)) reach_error();
    for (i = 0; i < 5; i++) {
        int want = i < idx ? 10 + i : i == idx ? x : 10 + i - 1;
        if (!(v.data[i] == want)) reach_error();
    }
    vec_find(&v, x, found);
    if (!(found == idx)) reach_error();
    vec_splice(&v, idx, 1);
    if (!(v.length == 4)) reach_error();
    for (i = 0; i < 4; i++)
        if (!(v.data[i] == 10 + i)) reach_error();
    vec_deinit(&v);
    return 0;
}
