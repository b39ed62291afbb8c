// expect: FALSE line=25
// why: push saturates at CAP, but the assertion claims the count stays below CAP: n = 4 pushes fill the ring.
#include <assert.h>

#define CAP 4

struct ring {
    int count;
    int buf[CAP];
};

static void push(struct ring *r, int v)
{
    if (r->count < CAP) {
        r->buf[r->count] = v;
        r->count++;
    }
}

void fill(int n)
{
    struct ring r = {0};
    for (int i = 0; i < n; i++)
        push(&r, i);
    assert(r.count < CAP);
}
