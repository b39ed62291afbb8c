// expect: TRUE
// property: unreach-call
// link: ../src/map.c
// flags:
// why: map_set_ replaces the value of a key already present (map_getref compares hash and string) and adds a node otherwise, so after three sets of keys from {"a","b","c"} each key maps to its last value, absent keys to NULL, and nnodes counts the distinct keys.
/* rxi/map: set three arbitrary keys (from "a", "b", "c", repeats allowed) to arbitrary ints
   and check map_get for every key and the node count against a model. */
#include "../src/map.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

static const char *const keys[3] = {"a", "b", "c"};

int main(void)
{
    map_int_t m;
    int model[3];
    int present[3] = {0, 0, 0};
    unsigned distinct = 0;
    int i, *got;

    map_init(&m);
    for (i = 0; i < 3; i++) {
        int k = __VERIFIER_nondet_uchar() % 3;
        int val = __VERIFIER_nondet_int();
        if (!(map_set(&m, keys[k], val) == 0)) reach_error();
        if (!present[k]) distinct++;
        present[k] = 1;
        model[k] = val;
    }
    if (!(m.base.nnodes == distinct)) reach_error();
    for (i = 0; i < 3; i++) {
        got = map_get(&m, keys[i]);
        if (present[i]) {
            if (!(got != NULL && *got == model[i])) reach_error();
        } else {
            if (!(got == NULL)) reach_error();
        }
    }
    map_deinit(&m);
    return 0;
}
