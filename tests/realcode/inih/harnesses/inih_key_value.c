// expect: TRUE
// property: unreach-call
// link: ../ini.c
// flags:
// why: ini_parse_stream strips the whitespace around name and value (ini_lskip/ini_rstrip), copies a "[s]" header into section, and calls the handler once per name=value line, so the handler sees exactly (s or "", k, v) once and the result is 0.
/* inih: "[s]\n" (or nothing) then "k=v" with arbitrary letters k, v, s, arbitrary spaces
   around '=' and an optional line end; the handler checks what it is given. */
#include <string.h>
#include "../ini.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

static char want_section[2], want_name[2], want_value[2];
static int calls;

static int handler(void *user, const char *section, const char *name, const char *value)
{
    (void)user;
    calls++;
    if (!(strcmp(section, want_section) == 0)) reach_error();
    if (!(strcmp(name, want_name) == 0)) reach_error();
    if (!(strcmp(value, want_value) == 0)) reach_error();
    return 1;
}

int main(void)
{
    char text[16];
    unsigned char bits = __VERIFIER_nondet_uchar();
    size_t n = 0;

    calls = 0;
    want_section[0] = '\0';
    want_name[0] = (char)('a' + __VERIFIER_nondet_uchar() % 3);
    want_value[0] = (char)('a' + __VERIFIER_nondet_uchar() % 3);
    if (bits & 1) {
        want_section[0] = (char)('a' + __VERIFIER_nondet_uchar() % 3);
        text[n++] = '[';
        text[n++] = want_section[0];
        text[n++] = ']';
        text[n++] = '\n';
    }
    text[n++] = want_name[0];
    if (bits & 2) text[n++] = ' ';
    text[n++] = '=';
    if (bits & 4) text[n++] = ' ';
    text[n++] = want_value[0];
    if (bits & 8) text[n++] = ' ';
    if (bits & 16) text[n++] = '\n';
    text[n] = '\0';
    if (!(ini_parse_string(text, handler, NULL) == 0)) reach_error();
    if (!(calls == 1)) reach_error();
    return 0;
}
