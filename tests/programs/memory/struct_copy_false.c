// expect: FALSE line=28
// why: clone copies sizeof(src->pos) bytes (only the pos member) instead of sizeof *src, so dst.id stays 0 and the assert fails whenever src->id != 0 (e.g. src->id = 7).
#include <assert.h>
#include <string.h>

struct point {
    int x, y;
};

struct entity {
    struct point pos;
    int id;
    int hp;
};

static void clone(struct entity *dst, const struct entity *src)
{
    memset(dst, 0, sizeof *dst);
    memcpy(dst, src, sizeof(src->pos));   /* bug: should be sizeof *src */
}

void spawn_copy(struct entity *src)
{
    struct entity e;

    clone(&e, src);
    assert(e.pos.x == src->pos.x && e.pos.y == src->pos.y);
    assert(e.id == src->id);
}
