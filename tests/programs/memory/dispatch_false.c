// expect: FALSE line=44
// why: the handler table lists do_reset before do_dec, so CMD_DEC (cmd=1) resets the counter and the assert fails for any v >= 2 (e.g. v=5).
#include <assert.h>

#define LIMIT 100

enum cmd { CMD_INC, CMD_DEC, CMD_RESET, CMD_COUNT };

struct counter {
    int value;
};

static void do_inc(struct counter *c)
{
    if (c->value < LIMIT)
        c->value++;
}

static void do_dec(struct counter *c)
{
    if (c->value > 0)
        c->value--;
}

static void do_reset(struct counter *c)
{
    c->value = 0;
}

static void (*const handlers[CMD_COUNT])(struct counter *) = {
    do_inc, do_reset, do_dec     /* bug: order does not match enum cmd */
};

void run_command(int cmd, int v)
{
    struct counter c;

    if (cmd < 0 || cmd >= CMD_COUNT || v < 0 || v > LIMIT)
        return;
    c.value = v;
    handlers[cmd](&c);
    assert(c.value >= 0 && c.value <= LIMIT);
    if (cmd == CMD_DEC)
        assert(c.value == (v > 0 ? v - 1 : 0));
}
