/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00001.c
   (c-testsuite). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
int
cts_main()
{
	return 0;
}

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
