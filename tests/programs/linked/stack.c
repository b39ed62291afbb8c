#include "stack.h"

int stack_pushes;

static int room(const struct stack *s) { return STACK_CAP - s->size; }

void stack_init(struct stack *s) { s->size = 0; }

int stack_push(struct stack *s, int v)
{
    if (room(s) == 0)
        return 0;
    s->items[s->size++] = v;
    stack_pushes++;
    return 1;
}

int stack_pop(struct stack *s, int *out)
{
    if (s->size == 0)
        return 0;
    *out = s->items[--s->size];
    return 1;
}
