// expect: TRUE
// property: unreach-call
// link: ../ringbuffer.c
// flags:
// why: with a 4-byte buffer (mask 3) the ring holds at most 3 bytes; ring_buffer_queue advances the tail first when full (dropping the oldest byte) and ring_buffer_dequeue returns tail bytes in order, which is exactly the bounded FIFO the model keeps.
/* Ring-Buffer: 6 arbitrary operations (queue an arbitrary byte / dequeue / peek) on a
   4-byte buffer, each checked against a model FIFO of capacity 3 that drops its oldest
   byte when a byte is queued while full. */
#include "../ringbuffer.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    char storage[4];
    ring_buffer_t rb;
    char model[3];
    unsigned count = 0, i;
    int step;
    char c;

    ring_buffer_init(&rb, storage, sizeof storage);
    for (step = 0; step < 6; step++) {
        unsigned char op = __VERIFIER_nondet_uchar() % 3;
        if (op == 0) {
            c = __VERIFIER_nondet_char();
            ring_buffer_queue(&rb, c);
            if (count == 3) {
                model[0] = model[1];
                model[1] = model[2];
                count--;
            }
            model[count++] = c;
        } else if (op == 1) {
            if (count == 0) {
                if (!(ring_buffer_dequeue(&rb, &c) == 0)) reach_error();
            } else {
                if (!(ring_buffer_dequeue(&rb, &c) == 1 && c == model[0])) reach_error();
                model[0] = model[1];
                model[1] = model[2];
                count--;
            }
        } else {
            i = __VERIFIER_nondet_uchar() % 4;
            if (i < count) {
                if (!(ring_buffer_peek(&rb, &c, i) == 1 && c == model[i])) reach_error();
            } else {
                if (!(ring_buffer_peek(&rb, &c, i) == 0)) reach_error();
            }
        }
        if (!(ring_buffer_num_items(&rb) == count)) reach_error();
        if (!(ring_buffer_is_empty(&rb) == (count == 0))) reach_error();
        if (!(ring_buffer_is_full(&rb) == (count == 3))) reach_error();
    }
    return 0;
}
