// expect: TRUE
// why: the buffers are filled by strcpy/strcat with literals that fit (12 chars + NUL in 16 bytes), and the parameter buffer is terminated at index 15 before strlen, so all lengths and comparisons are as asserted.
#include <assert.h>
#include <string.h>

void build_greeting(void)
{
    char buf[16];
    char copy[16];

    strcpy(buf, "hello");
    assert(strlen(buf) == 5);
    assert(strcmp(buf, "hello") == 0);
    strcat(buf, ", world");
    assert(strlen(buf) == 12);
    assert(buf[5] == ',' && buf[12] == '\0');
    strcpy(copy, buf);
    assert(strcmp(copy, buf) == 0);
    copy[0] = 'j';
    assert(strcmp(copy, buf) > 0);
    assert(strncmp(copy, buf, 0) == 0);
    assert(strncmp(copy + 1, buf + 1, 11) == 0);
    assert(strchr(buf, 'w') == buf + 7);
}

void measure_param(char *s)
{
    size_t n;

    s[15] = '\0';
    n = strlen(s);
    assert(n <= 15);
    assert(s[n] == '\0');
    if (n > 0)
        assert(s[n - 1] != '\0');
}
