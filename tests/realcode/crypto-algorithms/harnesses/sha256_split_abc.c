// expect: TRUE
// property: unreach-call
// link: ../sha256.c
// flags:
// why: sha256_update only appends bytes to ctx->data (no block is full for 3 bytes), so feeding "abc" as any two pieces gives the FIPS 180-2 digest of "abc", ba7816bf...f20015ad.
/* SHA-256: the streaming API gives the same digest however the message is split; "abc" is
   fed in two pieces at an arbitrary split point (0-3) and checked against the FIPS vector. */
#include <string.h>
#include "../sha256.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

static const BYTE expected[SHA256_BLOCK_SIZE] = {
    0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};

int main(void)
{
    const BYTE msg[3] = {'a', 'b', 'c'};
    size_t k = __VERIFIER_nondet_uchar() % 4;
    BYTE digest[SHA256_BLOCK_SIZE];
    SHA256_CTX ctx;
    int i;

    sha256_init(&ctx);
    sha256_update(&ctx, msg, k);
    sha256_update(&ctx, msg + k, 3 - k);
    sha256_final(&ctx, digest);
    for (i = 0; i < SHA256_BLOCK_SIZE; i++)
        if (!(digest[i] == expected[i])) reach_error();
    return 0;
}
