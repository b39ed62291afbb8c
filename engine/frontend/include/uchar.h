/* cbam stand-in for <uchar.h>: char16_t and char32_t as on x86 Linux. */
#ifndef __CBAM_UCHAR_H
#define __CBAM_UCHAR_H
#include <stddef.h>
typedef unsigned short char16_t;
typedef unsigned int char32_t;
#endif
