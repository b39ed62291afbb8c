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
/* The form container_of spells out; the builder reads it as the layout's constant. */
#define offsetof(type, member) ((size_t)&((type *)0)->member)
#endif
