// expect: FALSE (with stack.c): a fifth push is refused, so the last pop is the fourth value
#include <assert.h>
#include "stack.h"

extern int __VERIFIER_nondet_int(void);

static int room(void) { return 0; } /* not the library's: a static of this unit only */

int main(void)
{
    struct stack s;
    int i, v, last = 0;
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 5)
        return room();
    stack_init(&s);
    for (i = 0; i < n; i++) {
        last = i;
        stack_push(&s, i);
    }
    assert(stack_pushes <= STACK_CAP);
    if (n > 0) {
        stack_pop(&s, &v);
        assert(v == last);
    }
    return 0;
}
