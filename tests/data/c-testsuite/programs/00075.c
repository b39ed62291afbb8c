/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00075.c
   (org=www.simple-cc.org repository=git://git.simple-cc.org/scc version=355356a9836e487939cf5e98b5332a63e5264e27 path=tests/scc/execute/0078-dirifexpr.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
#if (-2) != -2
#error fail
#endif

#if (0 || 0) != 0
#error fail
#endif

#if (1 || 0) != 1
#error fail
#endif

#if (1 || 1) != 1
#error fail
#endif

#if (0 && 0) != 0
#error fail
#endif

#if (1 && 0) != 0
#error fail
#endif

#if (0 && 1) != 0
#error fail
#endif

#if (1 && 1) != 1
#error fail
#endif

#if (0xf0 | 1) != 0xf1
#error fail
#endif

#if (0xf0 & 1) != 0
#error fail
#endif

#if (0xf0 & 0x1f) != 0x10
#error fail
#endif

#if (1 ^ 1) != 0
#error fail
#endif

#if (1 == 1) != 1
#error fail
#endif

#if (1 == 0) != 0
#error fail
#endif

#if (1 != 1) != 0
#error fail
#endif

#if (0 != 1) != 1
#error fail
#endif

#if (0 > 1) != 0
#error fail
#endif

#if (0 < 1) != 1
#error fail
#endif

#if (0 > -1) != 1
#error fail
#endif

#if (0 < -1) != 0
#error fail
#endif

#if (0 >= 1) != 0
#error fail
#endif

#if (0 <= 1) != 1
#error fail
#endif

#if (0 >= -1) != 1
#error fail
#endif

#if (0 <= -1) != 0
#error fail
#endif

#if (0 < 0) != 0
#error fail
#endif

#if (0 <= 0) != 1
#error fail
#endif

#if (0 > 0) != 0
#error fail
#endif

#if (0 >= 0) != 1
#error fail
#endif

#if (1 << 1) != 2
#error fail
#endif

#if (2 >> 1) != 1
#error fail
#endif

#if (2 + 1) != 3
#error fail
#endif

#if (2 - 3) != -1
#error fail
#endif

#if (2 * 3) != 6
#error fail
#endif

#if (6 / 3) != 2
#error fail
#endif

#if (7 % 3) != 1
#error fail
#endif

#if (2+2*3+2) != 10
#error fail
#endif

#if ((2+2)*(3+2)) != 20
#error fail
#endif

#if (2 + 2 + 2 + 2 == 2 + 2 * 3) != 1
#error fail
#endif

#if (0 ? 1 : 3) != 3
#error fail
#endif

#if (1 ? 3 : 1) != 3
#error fail
#endif

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
