// expect: TRUE
// why: the handler table is indexed in enum order and each handler saturates at 0 or LIMIT, so dispatching any command in range gives exactly the expected counter value.
#include <assert.h>

#define LIMIT 100

enum cmd { CMD_INC, CMD_DEC, CMD_RESET, CMD_COUNT };

struct counter {
    int value;
    int ops;
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
    do_inc, do_dec, do_reset
};

static void dispatch(struct counter *c, int cmd)
{
    handlers[cmd](c);
    c->ops++;
}

void run_command(int cmd, int v)
{
    struct counter c;

    if (cmd < 0 || cmd >= CMD_COUNT || v < 0 || v > LIMIT)
        return;
    c.value = v;
    c.ops = 0;
    dispatch(&c, cmd);
    assert(c.ops == 1);
    assert(c.value >= 0 && c.value <= LIMIT);
    if (cmd == CMD_INC)
        assert(c.value == (v < LIMIT ? v + 1 : LIMIT));
    if (cmd == CMD_DEC)
        assert(c.value == (v > 0 ? v - 1 : 0));
    if (cmd == CMD_RESET)
        assert(c.value == 0);
}
