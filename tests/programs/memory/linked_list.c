// expect: TRUE
// why: each successful push prepends one node holding the loop index, so the list has `built` nodes whose values sum to built*(built-1)/2, and free_list releases every node.
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
    int val;
    struct node *next;
};

static int push(struct node **head, int v)
{
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        return 0;
    n->val = v;
    n->next = *head;
    *head = n;
    return 1;
}

static int length(const struct node *p)
{
    int len = 0;
    for (; p != NULL; p = p->next)
        len++;
    return len;
}

static int sum(const struct node *p)
{
    int s = 0;
    for (; p != NULL; p = p->next)
        s += p->val;
    return s;
}

static void free_list(struct node *p)
{
    while (p != NULL) {
        struct node *next = p->next;
        free(p);
        p = next;
    }
}

void build_and_measure(void)
{
    struct node *head = NULL;
    int n = __VERIFIER_nondet_int();
    int i, built = 0;

    if (n < 0 || n > 5)
        return;
    for (i = 0; i < n; i++) {
        if (!push(&head, i))
            break;
        built++;
    }
    assert(length(head) == built);
    assert(sum(head) == built * (built - 1) / 2);
    if (built > 0)
        assert(head->val == built - 1);
    else
        assert(head == NULL);
    free_list(head);
}
