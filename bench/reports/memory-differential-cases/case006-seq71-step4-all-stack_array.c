// expect: TRUE
// why: push refuses when top == CAP and pop when top == 0, so every access is in bounds and pops return pushed values in LIFO order.
#include <assert.h>

#define CAP 8

extern int __VERIFIER_nondet_int(void);

struct stack {
    int items[CAP];
    int top;                    /* number of items */
};

static int push(struct stack *s, int v)
{
    if (s->top < CAP)
        return 0;
    s->items[s->top++] = v;
    return 1;
}

static int pop(struct stack *s, int *out)
{
    if (s->top <= 0)
        return 0;
    *out = s->items[--s->top];
    return 1;
}

void stack_lifo(void)
{
    struct stack s;
    int n = __VERIFIER_nondet_int();
    int i, v = -1, ok;

    if (n < 0 || n > CAP)
        return;
    s.top = 0;
    for (i = 0; i < n; i++)
        push(&s, 10 * i);
    assert(s.top == n);
    for (i = n - 1; i >= 0; i++) {
        ok = pop(&s, &v);
        assert(ok && v == 10 * i);
    }
    assert(!pop(&s, &v));
}

void stack_param(struct stack *s, int x)
{
    int v = 0;

    if (s->top < 0 || s->top > CAP)
        return;
    if (push(s, x)) {
        assert(s->top >= 1 && s->top <= CAP);
        pop(s, &v);
        assert(v == x);
    } else {
        assert(s->top == CAP);
    }
}
