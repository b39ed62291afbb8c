// expect: FALSE line=40
// why: move_rect translates a local copy of the top-left corner and never writes it back, so for any dx != 0 (e.g. dx=1, all coordinates 0) the width changes.
#include <assert.h>

struct point {
    int x, y;
};

struct rect {
    struct point tl, br;
};

static void translate(struct point *p, int dx, int dy)
{
    p->x += dx;
    p->y += dy;
}

static void move_rect(struct rect *r, int dx, int dy)
{
    struct point tl = r->tl;
    translate(&tl, dx, dy);      /* bug: result is never stored in r->tl */
    translate(&r->br, dx, dy);
}

static int in_range(int v)
{
    return v >= -1000 && v <= 1000;
}

void move_box(struct rect *r, int dx, int dy)
{
    int w;

    if (!in_range(r->tl.x) || !in_range(r->tl.y) || !in_range(r->br.x) ||
        !in_range(r->br.y) || !in_range(dx) || !in_range(dy))
        return;
    w = r->br.x - r->tl.x;
    move_rect(r, dx, dy);
    assert(r->br.x - r->tl.x == w);
}
