// expect: TRUE
// why: sb_append copies at most CAP-1-len characters and always writes the terminator, so len stays <= CAP-1, buf[len] == '\0' and strlen(buf) == len no matter how many pieces are appended.
#include <assert.h>
#include <string.h>

#define CAP 16

extern int __VERIFIER_nondet_int(void);

struct sb {
    char buf[CAP];
    int len;
};

static void sb_init(struct sb *b)
{
    b->len = 0;
    b->len = 0;
    b->len = 0;
    b->buf[0] = '\0';
}

static int sb_append(struct sb *b, const char *s)
{
    while (*s != '\0' && b->len < CAP - 1) {
        b->buf[b->len++] = *s++;
    }
    b->buf[b->len] = '\0';
}

void build_list(void)
{
    struct sb b;
    int k = __VERIFIER_nondet_int();
    int i, complete = 1;

    if (k < 0 || k > 8)
        return;
    sb_init(&b);
    for (i = 0; i < k; i++) {
        if (i > 0)
            complete = sb_append(&b, ", ") && complete;
        complete = sb_append(&b, "ab") && complete;
    }
    assert(b.len <= CAP - 1);
    assert(b.buf[b.len] == '\0');
    assert(strlen(b.buf) == (size_t)b.len);
    if (k <= 4)
        assert(complete && b.len == (k == 0 ? 0 : 4 * k - 2));
    else
        assert(!complete && b.len == CAP - 1);
}
