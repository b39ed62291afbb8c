/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00051.c
   (org=www.simple-cc.org repository=git://git.simple-cc.org/scc version=355356a9836e487939cf5e98b5332a63e5264e27 path=tests/scc/execute/0052-switch.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
int x = 0;

int
cts_main()
{
	switch(x)
		case 0:
			;
	switch(x)
		case 0:
			switch(x) {
				case 0:
					goto next;
				default:
					return 1;
			}
	return 1;
	next:
	switch(x)
		case 1:
			return 1;
	switch(x) {
		{
			x = 1 + 1;
			foo:
			case 1:
				return 1;
		}
	}
	switch(x) {
		case 0:
			return x;
		case 1:
			return 1;
		default:
			return 1;
	}
}

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
