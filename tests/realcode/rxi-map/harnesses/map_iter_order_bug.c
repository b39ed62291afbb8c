// expect: FALSE
// property: unreach-call
// link: ../src/map.c
// flags:
// why: the harness's belief is wrong: map_next walks the buckets in index order, not in insertion order, so inserting "b" and then "a" (hashes 177607 and 177604, buckets 1 and 0 of 2) iterates "a" first.
// input: 0100
/* A false belief about the API: that a map iterates its keys in insertion order. */
#include <string.h>
#include "../src/map.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

static const char *const keys[3] = {"a", "b", "c"};

int main(void)
{
    map_int_t m;
    map_iter_t it;
    int k1 = __VERIFIER_nondet_uchar() % 3;
    int k2 = __VERIFIER_nondet_uchar() % 3;
    const char *first;

    if (k1 == k2)
        return 0;
    map_init(&m);
    map_set(&m, keys[k1], 1);
    map_set(&m, keys[k2], 2);
    it = map_iter(&m);
    first = map_next(&m, &it);
    if (!(first != NULL && strcmp(first, keys[k1]) == 0)) reach_error();
    map_deinit(&m);
    return 0;
}
