// expect: FALSE line=58
// why: length() stops at the last node without counting it (off by one), so any non-empty list, e.g. n=1, gives length n-1.
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
    if (p == NULL)
        return 0;
    while (p->next != NULL) {   /* bug: the last node is never counted */
        len++;
        p = p->next;
    }
    return len;
}

static void free_list(struct node *p)
{
    while (p != NULL) {
        struct node *next = p->next;
        free(p);
        p = next;
    }
}

void list_length(void)
{
    struct node *head = NULL;
    int n = __VERIFIER_nondet_int();
    int i, built = 0;

    if (n < 0 || n > 4)
        return;
    for (i = 0; i < n; i++) {
        if (!push(&head, i))
            break;
        built++;
    }
    assert(length(head) == built);
    free_list(head);
}
