struct point { int x; int y; };
int arr[3] = {1, 2};
int *gp;
int main(void) {
  struct point p = {1, 2};
  struct point *pp = &p;
  int a[4];
  int v = 5;
  int *q = &v;
  a[0] = arr[1];
  a[v - 4] = p.x;
  pp->y = 7;
  *q = 9;
  gp = q;
  return a[0] + p.y + *gp;
}
