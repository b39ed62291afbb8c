// expect: TRUE
// why: insert and lookup follow the same ordering (left for smaller keys, right for larger), so every key inserted successfully is found, a key different from all of them is not, and free_tree releases every node.
#include <assert.h>
#include <stdlib.h>

#define K 4

extern int __VERIFIER_nondet_int(void);

struct tnode {
    int key;
    struct tnode *left, *right;
};

static int insert(struct tnode **root, int key)
{
    struct tnode **p = root;
    while (*p != NULL) {
        if (key == (*p)->key)
            return 1;
        p = key < (*p)->key ? &(*p)->left : &(*p)->right;
    }
    *p = malloc(sizeof **p);
    if (*p == NULL)
        return 0;
    (*p)->key = key;
    (*p)->left = NULL;
    (*p)->right = NULL;
    return 1;
}

static int contains(const struct tnode *t, int key)
{
    while (t != NULL) {
        if (key == t->key)
            return 1;
        t = key < t->key ? t->left : t->right;
    }
    return 0;
}

static void free_tree(struct tnode *t)   /* recursion depth <= K */
{
    if (t == NULL)
        return;
    free_tree(t->left);
    free_tree(t->right);
    free(t);
}

void bst_insert_lookup(void)
{
    struct tnode *root = NULL;
    int keys[K], ok[K];
    int i, other, fresh = 1;

    for (i = 0; i < K; i++) {
        keys[i] = __VERIFIER_nondet_int();
        ok[i] = insert(&root, keys[i]);
    }
    for (i = 0; i < K; i++)
        if (ok[i])
            assert(contains(root, keys[i]));
    other = __VERIFIER_nondet_int();
    for (i = 0; i < K; i++)
        if (other == keys[i])
            fresh = 0;
    if (fresh)
        assert(!contains(root, other));
    free_tree(root);
}
