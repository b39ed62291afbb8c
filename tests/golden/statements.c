int g;
int loops(int n) {
  int s = 0;
  while (n > 0) {
    if (n == 3) { n--; continue; }
    if (s > 100) break;
    s += n;
    n--;
  }
  do { s--; } while (s > 10);
  for (int i = 0; i < 2; i++) s = s + i;
  for (;;) { if (s) break; }
  return s;
}
int branches(int x) {
  if (x < 0) x = -x; else if (x == 0) x = 1; else { x = x * 2; }
  switch (x) {
    case 1: x = 10;
    case 2: x = 20; break;
    case 3: { x = 30; break; }
    default: x = 0;
  }
  goto end;
  x = 99;
end:
  return x;
}
void nothing(void) { return; }
int main(void) { g = loops(5) + branches(2); nothing(); return g; }
