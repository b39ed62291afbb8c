// expect: FALSE line=67
// why: lookup walks left for larger keys and right for smaller ones (reversed w.r.t. insert), so the second key is never found for any a != b, e.g. a=1, b=2.
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tnode {
    int key;
    struct tnode *left, *right;
};

static struct tnode *new_node(int key)
{
    struct tnode *n = malloc(sizeof *n);
    if (n != NULL) {
        n->key = key;
        n->left = NULL;
        n->right = NULL;
    }
    return n;
}

static void insert(struct tnode *t, struct tnode *n)
{
    for (;;) {
        struct tnode **next = n->key < t->key ? &t->left : &t->right;
        if (*next == NULL) {
            *next = n;
            return;
        }
        t = *next;
    }
}

static int contains(const struct tnode *t, int key)
{
    while (t != NULL) {
        if (key == t->key)
            return 1;
        t = key > t->key ? t->left : t->right;    /* bug: reversed */
    }
    return 0;
}

void bst_two_keys(void)
{
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    struct tnode *root, *n;
    int found;

    if (a == b)
        return;
    root = new_node(a);
    if (root == NULL)
        return;
    n = new_node(b);
    if (n == NULL) {
        free(root);
        return;
    }
    insert(root, n);
    found = contains(root, b);
    free(n);
    free(root);
    assert(found);
}
