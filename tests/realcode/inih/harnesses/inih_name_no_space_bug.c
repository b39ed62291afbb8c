// expect: FALSE
// property: unreach-call
// link: ../ini.c
// flags:
// why: the harness's belief is wrong: inih strips whitespace only at the ends of a name, so the line "a a=" gives the handler the name "a a".
// input: 00010002
/* A false belief about the library: that a name never contains a space. The text is 4
   arbitrary characters of "a", " ", "=". */
#include <string.h>
#include "../ini.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

static const char alphabet[] = {'a', ' ', '='};

static int handler(void *user, const char *section, const char *name, const char *value)
{
    (void)user; (void)section; (void)value;
    if (!(strchr(name, ' ') == NULL)) reach_error();
    return 1;
}

int main(void)
{
    char text[5];
    int i;

    for (i = 0; i < 4; i++)
        text[i] = alphabet[__VERIFIER_nondet_uchar() % 3];
    text[4] = '\0';
    (void)ini_parse_string(text, handler, NULL);
    return 0;
}
