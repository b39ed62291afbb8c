/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00050.c
   (org=www.simple-cc.org repository=git://git.simple-cc.org/scc version=355356a9836e487939cf5e98b5332a63e5264e27 path=tests/scc/execute/0051-inits.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
struct S1 {
	int a;
	int b;
};

struct S2 {
	int a;
	int b;
	union {
		int c;
		int d;
	};
	struct S1 s;
};

struct S2 v = {1, 2, 3, {4, 5}};

int
cts_main()
{
	if(v.a != 1)
		return 1;
	if(v.b != 2)
		return 2;
	if(v.c != 3 || v.d != 3)
		return 3;
	if(v.s.a != 4)
		return 4;
	if(v.s.b != 5)
		return 5;
	
	return 0;
}

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
