// expect: TRUE
// property: memsafety
// link: ../aes.c
// flags:
// why: AES_CTR_xcrypt_buffer touches buf[0..length-1] only, refilling its 16-byte keystream block on the stack every 16 bytes, and the key schedule and Iv live in the context, so an exact-size heap buffer of 0-20 bytes is never overrun.
/* tiny-AES-c: CTR mode over an arbitrary 0-20 byte message in a heap block of exactly that
   size, with an arbitrary first key byte. */
#include <stdlib.h>
#include "../aes.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
    uint8_t iv[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};
    size_t len = __VERIFIER_nondet_uchar() % 21, i;
    uint8_t *buf = malloc(len ? len : 1);
    struct AES_ctx ctx;

    if (!buf)
        return 0;
    key[0] = __VERIFIER_nondet_uchar();
    for (i = 0; i < len; i++)
        buf[i] = __VERIFIER_nondet_uchar();
    AES_init_ctx_iv(&ctx, key, iv);
    AES_CTR_xcrypt_buffer(&ctx, buf, len);
    free(buf);
    return 0;
}
