// expect: TRUE
// property: unreach-call
// link: ../ringbuffer.c
// flags:
// why: the library's own example (examples/simple.c, upstream) asserts item counts, peeked and dequeued values of a 128-byte buffer, and every assertion holds (it runs to the end natively).
/* Ring-Buffer's own example program, which checks its results with assert(); included as
   is (it also prints every byte it dequeues). */
#include "../examples/simple.c"
