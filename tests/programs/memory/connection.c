// expect: TRUE
// why: data is counted only in the OPEN state, which is never left back to IDLE, so a connection that is still IDLE has sent nothing, whatever the events.
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
    if (c.state == IDLE)
        assert(c.sent == 0);
}
