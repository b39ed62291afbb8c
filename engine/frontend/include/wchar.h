/* cbam stand-in for <wchar.h>. */
#ifndef __CBAM_WCHAR_H
#define __CBAM_WCHAR_H
#define __need_size_t
#define __need_wchar_t
#define __need_wint_t
#define __need_NULL
#include <stddef.h>
#define WEOF ((wint_t)-1)
size_t wcslen(const wchar_t *__s);
#endif
