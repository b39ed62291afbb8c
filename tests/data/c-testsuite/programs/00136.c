/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00136.c
   (org=www.simple-cc.org repository=git://git.simple-cc.org/scc version=355356a9836e487939cf5e98b5332a63e5264e27 path=tests/scc/execute/0146-ifdef.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
#define FOO

#ifdef FOO
	int a;
	int b;
	#undef FOO
	#ifndef FOO
		int c;
		int d;
	#else
		int e;
		int f;
	#endif
	int e;
	int f;
	#ifdef FOO
		int c_;
		int d_;
	#else
		int e_;
		int f_;
	#endif
	int e_;
	int f_;
int
cts_main()
{
	return 0;
}
#else
	int j;
	int k;
	#ifdef FOO
		int j;
		int k;
	#else
		int n;
		int o;
	#endif
	int n;
	int o;
	#ifndef FOO
		int r;
		int s;
	#else
		int t;
		int u;
	#endif
	int t;
	int u;
	#error bad branch
#endif

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
