// expect: TRUE
// why: memset zeroes every byte of the local record and memcpy copies all sizeof(struct record) bytes from the parameter, so every field of the copy equals the source.
#include <assert.h>
#include <string.h>

struct record {
    int id;
    int pos[2];
    char name[8];
};

void copy_record(struct record *src)
{
    struct record dst;

    memset(&dst, 0, sizeof dst);
    assert(dst.id == 0 && dst.pos[0] == 0 && dst.pos[1] == 0);
    assert(dst.name[0] == '\0' && dst.name[7] == '\0');

    memcpy(&dst, src, sizeof dst);
    assert(dst.id == src->id);
    assert(dst.pos[0] == src->pos[0] && dst.pos[1] == src->pos[1]);
    assert(dst.name[7] == src->name[7]);
    assert(memcmp(&dst, src, sizeof dst) == 0);
}

void rename_record(struct record *r)
{
    int id = r->id;

    memset(r->name, 'x', sizeof r->name - 1);
    r->name[sizeof r->name - 1] = '\0';
    assert(strlen(r->name) == 7);
    assert(r->id == id);
}
