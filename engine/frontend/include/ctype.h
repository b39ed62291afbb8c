/* cbam stand-in for <ctype.h>: glibc's "C" locale, value for value. glibc's macros read a
   table (isdigit('7') is its bit 2048, not 1; tolower(-2) is 254); here the same values come
   from comparisons, which every analysis reads as it reads the program's own code. An
   argument that is neither EOF nor an unsigned char's value is undefined (glibc reads outside
   its table): any value. Called through its name in parentheses, or after #undef, a function
   is the C library's, external to the program. */
#ifndef __CBAM_CTYPE_H
#define __CBAM_CTYPE_H
int (isalnum)(int __c);
int (isalpha)(int __c);
int (isblank)(int __c);
int (iscntrl)(int __c);
int (isdigit)(int __c);
int (isgraph)(int __c);
int (islower)(int __c);
int (isprint)(int __c);
int (ispunct)(int __c);
int (isspace)(int __c);
int (isupper)(int __c);
int (isxdigit)(int __c);
int (tolower)(int __c);
int (toupper)(int __c);
int (isascii)(int __c);
int (toascii)(int __c);
int __VERIFIER_nondet_int(void);

/* Each class as glibc's bit for it (bits/ctype.h, little-endian: _ISupper 256, _ISlower 512,
   _ISalpha 1024, _ISdigit 2048, _ISxdigit 4096, _ISspace 8192, _ISprint 16384, _ISgraph
   32768, _ISblank 1, _IScntrl 2, _ISpunct 4, _ISalnum 8), by ranges of the character: one
   comparison chain each, which intervals and predicates follow. */
#define __CBAM_CLASS(name, bit, test) \
    static inline int __cbam_##name(int __c) \
    { \
        if (__c < -128 || __c > 255) \
            return __VERIFIER_nondet_int(); \
        return (test) ? (bit) : 0; \
    }
__CBAM_CLASS(isupper, 256, __c >= 'A' && __c <= 'Z')
__CBAM_CLASS(islower, 512, __c >= 'a' && __c <= 'z')
__CBAM_CLASS(isalpha, 1024, (__c >= 'A' && __c <= 'Z') || (__c >= 'a' && __c <= 'z'))
__CBAM_CLASS(isdigit, 2048, __c >= '0' && __c <= '9')
__CBAM_CLASS(isxdigit, 4096, (__c >= '0' && __c <= '9') || (__c >= 'A' && __c <= 'F') || (__c >= 'a' && __c <= 'f'))
__CBAM_CLASS(isspace, 8192, __c == ' ' || (__c >= '\t' && __c <= '\r'))
__CBAM_CLASS(isprint, 16384, __c >= ' ' && __c < 127)
__CBAM_CLASS(isgraph, 32768, __c > ' ' && __c < 127)
__CBAM_CLASS(isblank, 1, __c == ' ' || __c == '\t')
__CBAM_CLASS(iscntrl, 2, (__c >= 0 && __c < ' ') || __c == 127)
__CBAM_CLASS(ispunct, 4, (__c > ' ' && __c < '0') || (__c > '9' && __c < 'A') || (__c > 'Z' && __c < 'a')
                          || (__c > 'z' && __c < 127))
__CBAM_CLASS(isalnum, 8, (__c >= '0' && __c <= '9') || (__c >= 'A' && __c <= 'Z') || (__c >= 'a' && __c <= 'z'))
#undef __CBAM_CLASS

static inline int __cbam_tolower(int __c)
{
    if (__c < -128 || __c > 255)
        return __VERIFIER_nondet_int();
    if (__c >= 'A' && __c <= 'Z')
        return __c + 32;
    return __c < -1 ? __c + 256 : __c;
}

static inline int __cbam_toupper(int __c)
{
    if (__c < -128 || __c > 255)
        return __VERIFIER_nondet_int();
    if (__c >= 'a' && __c <= 'z')
        return __c - 32;
    return __c < -1 ? __c + 256 : __c;
}

#define isalnum(c) __cbam_isalnum(c)
#define isalpha(c) __cbam_isalpha(c)
#define isblank(c) __cbam_isblank(c)
#define iscntrl(c) __cbam_iscntrl(c)
#define isdigit(c) __cbam_isdigit(c)
#define isgraph(c) __cbam_isgraph(c)
#define islower(c) __cbam_islower(c)
#define isprint(c) __cbam_isprint(c)
#define ispunct(c) __cbam_ispunct(c)
#define isspace(c) __cbam_isspace(c)
#define isupper(c) __cbam_isupper(c)
#define isxdigit(c) __cbam_isxdigit(c)
#define tolower(c) __cbam_tolower(c)
#define toupper(c) __cbam_toupper(c)
#define isascii(c) (((c) & ~0x7f) == 0)
#define toascii(c) ((c) & 0x7f)
#endif
