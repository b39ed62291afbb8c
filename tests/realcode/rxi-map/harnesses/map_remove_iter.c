// expect: TRUE
// property: unreach-call
// link: ../src/map.c
// flags:
// why: map_remove_ unlinks exactly the node map_getref finds for the key, so the removed key is gone, the others keep their values, and map_next visits each remaining node once (each bucket's chain in turn), as many as nnodes.
/* rxi/map: an arbitrary subset of {"a","b","c"} is set, an arbitrary key removed (present
   or not); then map_get and a full iteration are checked against a model. */
#include <string.h>
#include "../src/map.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

static const char *const keys[3] = {"a", "b", "c"};

int main(void)
{
    map_int_t m;
    unsigned char subset = __VERIFIER_nondet_uchar() & 7;
    int gone = __VERIFIER_nondet_uchar() % 3;
    int seen[3] = {0, 0, 0};
    unsigned count = 0, expected = 0;
    const char *key;
    map_iter_t it;
    int i, *got;

    map_init(&m);
    for (i = 0; i < 3; i++)
        if (subset & (1u << i))
            map_set(&m, keys[i], 100 + i);
    map_remove(&m, keys[gone]);
    for (i = 0; i < 3; i++) {
        int there = (subset & (1u << i)) && i != gone;
        got = map_get(&m, keys[i]);
        if (there) {
            expected++;
            if (!(got != NULL && *got == 100 + i)) reach_error();
        } else if (!(got == NULL)) {
            reach_error();
        }
    }
    if (!(m.base.nnodes == expected)) reach_error();
    it = map_iter(&m);
    while ((key = map_next(&m, &it))) {
        int k = key[0] - 'a';
        if (!(k >= 0 && k < 3 && key[1] == '\0')) reach_error();
        if (!(!seen[k] && k != gone)) reach_error();
        seen[k] = 1;
        count++;
    }
    if (!(count == expected)) reach_error();
    map_deinit(&m);
    return 0;
}
