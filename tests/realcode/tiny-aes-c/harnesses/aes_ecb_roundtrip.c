// expect: TRUE
// property: unreach-call
// link: ../aes.c
// flags:
// why: AES_ECB_decrypt applies InvCipher, the inverse of Cipher round by round (InvShiftRows/InvSubBytes/InvMixColumns undo ShiftRows/SubBytes/MixColumns under the same key schedule), so decrypting the encryption of any block gives it back.
/* tiny-AES-c: ECB encrypt then decrypt a block whose first two bytes are arbitrary gives the
   block back (FIPS-197 key). */
#include "../aes.h"

extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
    uint8_t plain[16] = {0, 0, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a};
    uint8_t block[16];
    struct AES_ctx ctx;
    int i;

    plain[0] = __VERIFIER_nondet_uchar();
    plain[1] = __VERIFIER_nondet_uchar();
    for (i = 0; i < 16; i++)
        block[i] = plain[i];
    AES_init_ctx(&ctx, key);
    AES_ECB_encrypt(&ctx, block);
    AES_ECB_decrypt(&ctx, block);
    for (i = 0; i < 16; i++)
        if (!(block[i] == plain[i])) reach_error();
    return 0;
}
