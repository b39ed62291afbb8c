/* cbam stand-in for <stddef.h>. */
#ifndef __CBAM_STDDEF_H
#define __CBAM_STDDEF_H
#if __SIZEOF_POINTER__ == 8
typedef unsigned long size_t;
typedef long ptrdiff_t;
#else
typedef unsigned int size_t;
typedef int ptrdiff_t;
#endif
typedef int wchar_t;
#define NULL ((void *)0)
#endif
