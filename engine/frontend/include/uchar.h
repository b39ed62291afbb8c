/* cbam stand-in for <uchar.h>: char16_t and char32_t as on x86 Linux. */
#ifndef __CBAM_UCHAR_H
#define __CBAM_UCHAR_H
#define __need_size_t
#include <stddef.h>
typedef __CHAR16_TYPE__ char16_t;
typedef __CHAR32_TYPE__ char32_t;
#endif
