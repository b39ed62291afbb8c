/* Translated by tests/data/c-testsuite/translate.py from c-testsuite 5c7275656d75, tests/single-exec/00033.c
   (org=www.simple-cc.org repository=git://git.simple-cc.org/scc version=355356a9836e487939cf5e98b5332a63e5264e27 path=tests/scc/execute/0034-logandor.c). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) { abort(); }
extern void exit(int);
static void cts_exit(int status) { if (status != 0) reach_error(); exit(0); }
int g;

int
effect()
{
	g = 1;
	return 1;
}

int
cts_main()
{
    int x;
    
    g = 0;
    x = 0;
    if(x && effect())
    	return 1;
    if(g)
    	return 2;
    x = 1;
    if(x && effect()) {
    	if(g != 1)
    		return 3;
    } else {
    	return 4;
    }
    g = 0;
    x = 1;
    if(x || effect()) {
    	if(g)
    		return 5;
    } else {
    	return 6;
    }
    x = 0;
    if(x || effect()) {
    	if(g != 1)
    		return 7;
    } else {
    	return 8;
    } 
    return 0;
}

int main(void)
{
    if (cts_main() != 0) reach_error();
    return 0;
}
