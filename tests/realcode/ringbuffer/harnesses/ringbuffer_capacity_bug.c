// expect: FALSE
// property: unreach-call
// link: ../ringbuffer.c
// flags:
// why: the harness's belief is wrong: a ring buffer over N bytes keeps one slot free to tell full from empty, so it holds N - 1 = 3 bytes and the fourth queue drops the oldest; num_items is 3, not 4.
// input: 00
/* A false belief about the API: that a ring buffer over 4 bytes of storage holds 4 bytes. */
#include "../ringbuffer.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern char __VERIFIER_nondet_char(void);

int main(void)
{
    char storage[4];
    ring_buffer_t rb;
    char first = __VERIFIER_nondet_char(), c;
    int i;

    ring_buffer_init(&rb, storage, sizeof storage);
    ring_buffer_queue(&rb, first);
    for (i = 1; i < 4; i++)
        ring_buffer_queue(&rb, __VERIFIER_nondet_char());
    if (!(ring_buffer_num_items(&rb) == 4)) reach_error();
    if (!(ring_buffer_dequeue(&rb, &c) == 1 && c == first)) reach_error();
    return 0;
}
