// expect: FALSE
// property: memsafety
// link: ../sha256.c
// flags:
// why: the harness keeps a 16-byte digest buffer (MD5's size, a copy-paste bug) but sha256_final writes SHA256_BLOCK_SIZE = 32 bytes, so it writes past the stack array for every message.
// input: 00
/* A caller's bug: code moved from MD5 to SHA-256 kept MD5's 16-byte digest buffer. */
#include "../sha256.h"

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    BYTE msg[2];
    BYTE digest[16]; /* MD5_DIGEST_LENGTH */
    SHA256_CTX ctx;
    size_t len = __VERIFIER_nondet_uchar() % 3, i;

    for (i = 0; i < len; i++)
        msg[i] = __VERIFIER_nondet_uchar();
    sha256_init(&ctx);
    sha256_update(&ctx, msg, len);
    sha256_final(&ctx, digest);
    return 0;
}
