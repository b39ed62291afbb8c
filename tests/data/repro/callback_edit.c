/* An edit of go alone (b[0] == 'x' to 'y') must be seen by its callback call: issue 56's
   session found a cached TRUE for the failing version (tests/test_cache_soundness.py). */
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
typedef char *(*reader)(char *, int);
static char *mine(char *buf, int n) { buf[0] = 'x'; buf[1] = 0; return buf; }
static int go(reader r) { char b[4]; char *p = r(b, 4); return p != 0 && b[0] == 'x'; }
int main(void) {
  if (!go(mine)) reach_error();
  return 0;
}
