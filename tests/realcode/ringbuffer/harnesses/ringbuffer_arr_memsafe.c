// expect: TRUE
// property: memsafety
// link: ../ringbuffer.c
// flags:
// why: every index into the storage is masked with size - 1, ring_buffer_queue_arr reads exactly size bytes of its source and ring_buffer_dequeue_arr writes at most len bytes, so exact-size heap blocks for the storage (8), the source (0-10) and the destination (0-8) are never overrun.
/* Ring-Buffer's array calls with the storage, the source and the destination each in a heap
   block of exactly its size: queue 0-10 arbitrary bytes (more than the ring holds), peek at
   an arbitrary index, dequeue up to 0-8 of them. */
#include <stdlib.h>
#include "../ringbuffer.h"

extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    size_t n = __VERIFIER_nondet_uchar() % 11;
    size_t len = __VERIFIER_nondet_uchar() % 9;
    char *storage = malloc(8);
    char *src = malloc(n ? n : 1);
    char *dst = malloc(len ? len : 1);
    ring_buffer_t rb;
    size_t i;
    char c;

    if (storage && src && dst) {
        for (i = 0; i < n; i++)
            src[i] = __VERIFIER_nondet_char();
        ring_buffer_init(&rb, storage, 8);
        ring_buffer_queue_arr(&rb, src, n);
        (void)ring_buffer_peek(&rb, &c, __VERIFIER_nondet_uchar() % 9);
        (void)ring_buffer_dequeue_arr(&rb, dst, len);
    }
    free(dst);
    free(src);
    free(storage);
    return 0;
}
