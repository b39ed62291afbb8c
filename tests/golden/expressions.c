typedef unsigned int u32;
enum color { RED, GREEN = 5, BLUE };
int counter = 7;
unsigned char uc = 200;
int f(int a) { return a + 1; }
int main(void) {
  int x = 1, y;
  u32 u = 4000000000U;
  y = x++ + ++x;
  x += f(y) * 2;
  y = (x = 3, x + 1);
  if ((y = f(x)) > 2 && x != 0 || !y) y = x ? f(1) : -1;
  long long big = (long long)x << 40;
  char c = 'a' + '\n';
  unsigned char w = uc + uc;
  int s = sizeof(int) + sizeof x + sizeof(long);
  int e = BLUE + GREEN;
  int cmp = u > -1;
  x = ~x ^ (y | 3) & (x >> 1) % 5;
  return x + c + w + s + e + cmp + (int)u + (int)big;
}
