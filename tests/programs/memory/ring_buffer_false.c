// expect: FALSE line=55
// why: push wraps tail when it reaches CAP-1 instead of CAP, so the 4th push (n=4) overwrites data[0] and the first pop returns the 4th value instead of the 1st (fails when v[0] != v[3]).
#include <assert.h>
#include <string.h>

#define CAP 4

extern int __VERIFIER_nondet_int(void);

struct ring {
    int data[CAP];
    int head, tail, count;
};

static void ring_init(struct ring *r)
{
    memset(r, 0, sizeof *r);
}

static int ring_push(struct ring *r, int v)
{
    if (r->count == CAP)
        return 0;
    r->data[r->tail] = v;
    r->tail++;
    if (r->tail == CAP - 1)     /* bug: should compare with CAP */
        r->tail = 0;
    r->count++;
    return 1;
}

static int ring_pop(struct ring *r)
{
    int v = r->data[r->head];
    r->head = (r->head + 1) % CAP;
    r->count--;
    return v;
}

void ring_order(void)
{
    struct ring r;
    int v[CAP];
    int n = __VERIFIER_nondet_int();
    int i;

    if (n < 1 || n > CAP)
        return;
    ring_init(&r);
    for (i = 0; i < n; i++) {
        v[i] = __VERIFIER_nondet_int();
        ring_push(&r, v[i]);
    }
    assert(r.count == n);
    assert(ring_pop(&r) == v[0]);
}
