// expect: FALSE line=42
// why: peek reads items[top] (the next free slot, zeroed by memset) instead of items[top-1], so after pushing a nonzero value (e.g. n=1, x=5) peek returns 0.
#include <assert.h>
#include <string.h>

#define CAP 8

extern int __VERIFIER_nondet_int(void);

struct stack {
    int items[CAP];
    int top;
};

static int push(struct stack *s, int v)
{
    if (s->top >= CAP)
        return 0;
    s->items[s->top++] = v;
    return 1;
}

static int peek(const struct stack *s)
{
    return s->items[s->top];    /* bug: should be s->top - 1 */
}

void stack_peek(void)
{
    struct stack s;
    int n = __VERIFIER_nondet_int();
    int i, x = 0;

    if (n < 1 || n > 3)
        return;
    memset(&s, 0, sizeof s);
    for (i = 0; i < n; i++) {
        x = __VERIFIER_nondet_int();
        push(&s, x);
    }
    assert(s.top == n);
    assert(peek(&s) == x);
}
