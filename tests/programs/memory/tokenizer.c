// expect: TRUE
// why: the two-state scanner counts a token at each transition from space to non-space; the literal has 5 tokens and the number token parses to 42, and a 15-char terminated buffer can hold at most 8 space-separated tokens.
#include <assert.h>
#include <string.h>

enum state { IN_SPACE, IN_WORD };

static int count_tokens(const char *s)
{
    enum state st = IN_SPACE;
    int n = 0;

    for (; *s != '\0'; s++) {
        if (*s == ' ') {
            st = IN_SPACE;
        } else if (st == IN_SPACE) {
            st = IN_WORD;
            n++;
        }
    }
    return n;
}

static int parse_uint(const char *s, int *out)
{
    int v = 0, digits = 0;

    while (*s >= '0' && *s <= '9' && digits < 4) {
        v = v * 10 + (*s - '0');
        s++;
        digits++;
    }
    *out = v;
    return digits;
}

void tokenize_literal(void)
{
    const char *src = "let x = 42 ;";
    const char *num = strchr(src, '4');
    int v = -1;

    assert(count_tokens(src) == 5);
    assert(num != NULL && num - src == 8);
    assert(parse_uint(num, &v) == 2);
    assert(v == 42);
}

void tokenize_buffer(char *buf)
{
    int n, v;

    buf[15] = '\0';
    n = count_tokens(buf);
    assert(n >= 0 && n <= 8);
    assert(parse_uint(buf, &v) <= 4 && v >= 0 && v <= 9999);
}
