/* A fixed-size stack of ints, in a library of its own (stack.c), used by stack_main.c. */
#ifndef STACK_H
#define STACK_H
#define STACK_CAP 4
struct stack {
    int items[STACK_CAP];
    int size;
};
void stack_init(struct stack *s);
int stack_push(struct stack *s, int v); /* 0 when full */
int stack_pop(struct stack *s, int *out); /* 0 when empty */
static inline int stack_full(const struct stack *s) { return s->size == STACK_CAP; }
extern int stack_pushes;
#endif
