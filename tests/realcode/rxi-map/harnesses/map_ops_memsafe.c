// expect: TRUE
// property: memsafety
// link: ../src/map.c
// flags:
// why: map_newnode allocates header + padded key + value in one block and copies exactly strlen + 1 and vsize bytes into it, map_resize reallocates the bucket array before re-linking, map_remove_ frees the unlinked node, and map_deinit frees every node and the buckets.
/* rxi/map: 4 arbitrary operations (set, remove, get) on keys of 0-2 characters from
   {'a','b'} held in a small stack buffer, then iterate and map_deinit: no invalid access,
   nothing leaked. */
#include "../src/map.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    map_int_t m;
    map_iter_t it;
    char key[3];
    int step, sum = 0, *got;

    map_init(&m);
    for (step = 0; step < 4; step++) {
        unsigned char op = __VERIFIER_nondet_uchar() % 3;
        unsigned char len = __VERIFIER_nondet_uchar() % 3;
        unsigned char bits = __VERIFIER_nondet_uchar();
        unsigned i;
        for (i = 0; i < len; i++)
            key[i] = (bits >> i) & 1 ? 'b' : 'a';
        key[len] = '\0';
        if (op == 0)
            map_set(&m, key, step);
        else if (op == 1)
            map_remove(&m, key);
        else if ((got = map_get(&m, key)))
            sum += *got;
    }
    it = map_iter(&m);
    while (map_next(&m, &it))
        sum++;
    map_deinit(&m);
    (void)sum;
    return 0;
}
