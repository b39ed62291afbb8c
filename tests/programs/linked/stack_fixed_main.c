// expect: TRUE (with stack.c): at most four pushes, and the last pop is the last value pushed
#include <assert.h>
#include "stack.h"

extern int __VERIFIER_nondet_int(void);

static int room(void) { return 0; }

int main(void)
{
    struct stack s;
    int i, v, last = 0;
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > STACK_CAP)
        return room();
    stack_init(&s);
    for (i = 0; i < n; i++) {
        last = i;
        stack_push(&s, i);
    }
    assert(stack_pushes <= STACK_CAP && !stack_full(&s) == (n < STACK_CAP));
    if (n > 0) {
        stack_pop(&s, &v);
        assert(v == last);
    }
    return 0;
}
