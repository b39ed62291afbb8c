// expect: TRUE (gcc -m64/-m32 run it to 0) -- from c-testsuite tests/single-exec/00110.c (scc 0113-externredecl.c)
/* `extern int x;` followed by the tentative definition `int x;`: x is defined, and zero as every
   object of static storage duration without an initialiser. cbam treats x as an extern object
   of unknown value (its error path shows "extern x() = -1"). */
extern void abort(void);
void reach_error(void) { abort(); }
extern int x;
int x;
int main(void)
{
    if (x != 0) reach_error();
    return 0;
}
