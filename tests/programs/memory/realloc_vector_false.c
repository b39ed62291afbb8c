// expect: FALSE line=42
// why: when vec_push has to grow the buffer it stores the element but forgets size++, so any n >= 1 (e.g. n=1) ends with size < n.
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
        v->data[v->size] = x;   /* bug: size is not incremented here */
        return 1;
    }
    v->data[v->size++] = x;
    return 1;
}

void vector_fill(void)
{
    struct vec v = {NULL, 0, 0};
    int n = __VERIFIER_nondet_int();
    int i, pushed = 0;

    if (n < 0 || n > 8)
        return;
    for (i = 0; i < n; i++)
        if (vec_push(&v, i))
            pushed++;
    free(v.data);
    assert(v.size == pushed);
}
