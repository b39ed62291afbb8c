/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00162.c
   (org=https://bellard.org/tcc/ repository=git://repo.or.cz/tinycc.git version=61ba9f229955f105af9d7dcdbfcc9c9effbe8af3 path=tests/tests2/100_c99array-decls.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
void foo(int [5]);
void fooc(int x[const 5]);
void foos(int x[static 5]);
void foov(int x[volatile 5]);
void foor(int x[restrict 5]);
void fooc(int [const 5]);
void foos(int [static 5]);
void foov(int [volatile 5]);
void foor(int [restrict 5]);
void fooc(int (* const x));
void foos(int *x);
void foov(int * volatile x);
void foor(int * restrict x);
void fooc(int x[volatile 5])
{
  x[3] = 42;
#ifdef INVALID
  x = 0;
#endif
}
void foovm(int x[const *]);
void foovm(int * const x);
#ifdef INVALID
void wrongc(int x[3][const 4]);
void wrongvm(int x[static *]);
void foovm(int x[const *])
{
  x[2] = 1;
}
#endif
int cts_main()
{
  return 0;
}

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
