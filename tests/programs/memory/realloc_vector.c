// expect: TRUE
// why: vec_push grows the buffer (doubling via realloc) before the write whenever size == cap, so every write is in bounds and after n successful pushes size == n with data[i] == 3*i; the buffer is freed.
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct vec {
    int *data;
    int size;
    int cap;
};

static int vec_push(struct vec *v, int x)
{
    if (v->size == v->cap) {
        int ncap = v->cap == 0 ? 2 : 2 * v->cap;
        int *d = realloc(v->data, (size_t)ncap * sizeof *d);
        if (d == NULL)
            return 0;
        v->data = d;
        v->cap = ncap;
    }
    v->data[v->size++] = x;
    return 1;
}

void vector_fill(void)
{
    struct vec v = {NULL, 0, 0};
    int n = __VERIFIER_nondet_int();
    int i, pushed = 0;

    if (n < 0 || n > 12)
        return;
    for (i = 0; i < n; i++) {
        if (!vec_push(&v, 3 * i))
            break;
        pushed++;
    }
    assert(v.size == pushed);
    assert(v.size <= v.cap);
    for (i = 0; i < v.size; i++)
        assert(v.data[i] == 3 * i);
    free(v.data);
}
