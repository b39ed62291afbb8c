// expect: FALSE
// property: memsafety
// link: ../planted/map.c
// flags: -I../src
// why: planted/map.c's map_remove_ unlinks the node but no longer frees it (free(node) deleted), so a set followed by a remove of the same key leaks the node, which nothing references after map_deinit.
// input: 0000
/* PLANTED BUG in the linked copy of map.c (see why:). rxi/map: set one or two keys, remove
   one of them, free the map. */
#include "../src/map.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

static const char *const keys[2] = {"x", "y"};

int main(void)
{
    map_int_t m;
    int a = __VERIFIER_nondet_uchar() & 1;
    int b = __VERIFIER_nondet_uchar() & 1;

    map_init(&m);
    map_set(&m, keys[a], 1);
    map_set(&m, keys[1 - a], 2);
    map_remove(&m, keys[b]);
    map_deinit(&m);
    return 0;
}
