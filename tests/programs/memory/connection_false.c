// expect: FALSE line=38
// why: a CLOSED connection that sent data before closing: the assertion wrongly claims closed connections sent nothing (events 1, 2, 3).
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

enum state { IDLE, OPEN, CLOSED };

struct conn {
    enum state state;
    int sent;
};

static void step(struct conn *c, int event)
{
    switch (c->state) {
    case IDLE:
        if (event == 1)
            c->state = OPEN;
        break;
    case OPEN:
        if (event == 2 && c->sent < 1000)
            c->sent++;
        else if (event == 3)
            c->state = CLOSED;
        break;
    case CLOSED:
        break;
    }
}

void serve(void)
{
    struct conn c = {IDLE, 0};
    while (__VERIFIER_nondet_int())
        step(&c, __VERIFIER_nondet_int());
    if (c.state == CLOSED)
        assert(c.sent == 0);
}
