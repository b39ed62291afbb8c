/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00137.c
   (org=www.simple-cc.org repository=git://git.simple-cc.org/scc version=355356a9836e487939cf5e98b5332a63e5264e27 path=tests/scc/execute/0148-cpp-string.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
#define x(y) #y

int
cts_main(void)
{
	char *p;
	p = x(hello)  " is better than bye";

	return (*p == 'h') ? 0 : 1;
}

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
