/* cbam stand-in for <wchar.h>. */
#ifndef __CBAM_WCHAR_H
#define __CBAM_WCHAR_H
#include <stddef.h>
typedef unsigned int wint_t;
#define WEOF ((wint_t)-1)
size_t wcslen(const wchar_t *__s);
#endif
