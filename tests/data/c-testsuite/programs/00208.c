/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00208.c
   (org=https://bellard.org/tcc/ repository=git://repo.or.cz/tinycc.git version=61ba9f229955f105af9d7dcdbfcc9c9effbe8af3 path=tests/tests2/80_flexarray.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
#include <stdio.h>
struct wchar {
    char *data; char mem[1];
};
struct wint {
    char *data; int mem[1];
};
int f1char (void) {
    char s[9]="nonono";
    struct wchar q = {"bugs"};
    return !s[0];
}
int f1int (void) {
    char s[9]="nonono";
    struct wint q = {"bugs"};
    return !s[0];
}
int cts_main (void) {
   char s[9]="nonono";
   static struct wchar q = {"bugs", {'c'}};
   //printf ("tcc has %s %s\n", s, q.data);
   if (f1char() || f1int())
     printf ("bla\n");
   return !s[0];
}

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
