// expect: TRUE
// property: memsafety
// link: ../sha256.c
// flags:
// why: sha256_update reads data[0..len-1] and keeps ctx->datalen below 64, sha256_final pads within ctx->data[64] and writes exactly SHA256_BLOCK_SIZE (32) bytes, so exact-size heap buffers for a 0-8 byte message in two pieces and for the digest are never overrun.
/* SHA-256 on an arbitrary message of 0-8 bytes, fed in two pieces, with the message and the
   digest each in a heap block of exactly its size. */
#include <stdlib.h>
#include "../sha256.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    size_t len = __VERIFIER_nondet_uchar() % 9;
    size_t k = __VERIFIER_nondet_uchar() % (len + 1);
    BYTE *msg = malloc(len ? len : 1);
    BYTE *digest = malloc(SHA256_BLOCK_SIZE);
    SHA256_CTX ctx;
    size_t i;

    if (msg && digest) {
        for (i = 0; i < len; i++)
            msg[i] = __VERIFIER_nondet_uchar();
        sha256_init(&ctx);
        sha256_update(&ctx, msg, k);
        sha256_update(&ctx, msg + k, len - k);
        sha256_final(&ctx, digest);
    }
    free(digest);
    free(msg);
    return 0;
}
