// expect: FALSE
// property: unreach-call
// link: ../planted/ringbuffer.c
// flags: -I..
// why: planted/ringbuffer.c's ring_buffer_peek rejects only index > num_items (was >=), so peeking at index num_items -- one past the last byte, e.g. index 0 of an empty buffer -- reports a byte that is not there.
// input: 00
/* PLANTED BUG in the linked copy of ringbuffer.c (see why:). Ring-Buffer: queue 0-3
   arbitrary bytes; peeking at each index below the count finds them, at the count finds
   nothing. */
#include "../ringbuffer.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    char storage[4], vals[3], c;
    ring_buffer_t rb;
    unsigned n = __VERIFIER_nondet_uchar() % 4, i;

    ring_buffer_init(&rb, storage, sizeof storage);
    for (i = 0; i < n; i++) {
        vals[i] = __VERIFIER_nondet_char();
        ring_buffer_queue(&rb, vals[i]);
    }
    for (i = 0; i < n; i++)
        if (!(ring_buffer_peek(&rb, &c, i) == 1 && c == vals[i])) reach_error();
    if (!(ring_buffer_peek(&rb, &c, n) == 0)) reach_error();
    return 0;
}
