// expect: TRUE
// why: move_rect translates both corners of the box by the same (dx, dy) through pointers to the nested fields, so width, height and id are unchanged; the guards keep all sums far from overflow.
#include <assert.h>

struct point {
    int x, y;
};

struct rect {
    struct point tl, br;
};

struct shape {
    int id;
    struct rect box;
};

static void translate(struct point *p, int dx, int dy)
{
    p->x += dx;
    p->y += dy;
}

static void move_rect(struct rect *r, int dx, int dy)
{
    translate(&r->tl, dx, dy);
    translate(&r->br, dx, dy);
}

static int in_range(int v)
{
    return v >= -1000 && v <= 1000;
}

void move_shape(struct shape *s, int dx, int dy)
{
    struct rect *b = &s->box;
    int id = s->id, x0, w, h;

    if (!in_range(b->tl.x) || !in_range(b->tl.y) || !in_range(b->br.x) ||
        !in_range(b->br.y) || !in_range(dx) || !in_range(dy))
        return;
    x0 = b->tl.x;
    w = b->br.x - b->tl.x;
    h = b->br.y - b->tl.y;
    move_rect(&s->box, dx, dy);
    assert(s->box.tl.x == x0 + dx);
    assert(s->box.br.x - s->box.tl.x == w);
    assert(s->box.br.y - s->box.tl.y == h);
    assert(s->id == id);
}
