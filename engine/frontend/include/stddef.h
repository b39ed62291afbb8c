/* cbam stand-in for <stddef.h>, over gcc's types (__cbam_target.h). As gcc's, a header that defines __need_size_t (or another
   __need_ name) before including it gets that name alone, so a program sees what gcc shows it. */
#if !defined(__need_size_t) && !defined(__need_ptrdiff_t) && !defined(__need_wchar_t) && !defined(__need_NULL) \
    && !defined(__need_wint_t)
#define __CBAM_STDDEF_ALL
#define __need_size_t
#define __need_ptrdiff_t
#define __need_wchar_t
#define __need_NULL
#endif
#if defined(__need_size_t) && !defined(__CBAM_SIZE_T)
#define __CBAM_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#if defined(__need_ptrdiff_t) && !defined(__CBAM_PTRDIFF_T)
#define __CBAM_PTRDIFF_T
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif
#if defined(__need_wchar_t) && !defined(__CBAM_WCHAR_T)
#define __CBAM_WCHAR_T
typedef __WCHAR_TYPE__ wchar_t;
#endif
#if defined(__need_wint_t) && !defined(__CBAM_WINT_T)
#define __CBAM_WINT_T
typedef __WINT_TYPE__ wint_t;
#endif
#if defined(__need_NULL)
#undef NULL
#define NULL ((void *)0)
#endif
#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_NULL
#undef __need_wint_t
#if defined(__CBAM_STDDEF_ALL) && !defined(__CBAM_STDDEF_H)
#define __CBAM_STDDEF_H
/* The form container_of spells out; the builder reads it as the layout's constant. */
#define offsetof(type, member) ((size_t)&((type *)0)->member)
typedef struct { long long __ll; long double __ld; } max_align_t;
#endif
#undef __CBAM_STDDEF_ALL
