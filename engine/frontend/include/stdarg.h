/* cbam stand-in for <stdarg.h>: gcc's, over the builtins __cbam_prelude.h defines. */
#ifndef __CBAM_STDARG_H
#define __CBAM_STDARG_H
typedef __builtin_va_list va_list;
typedef __builtin_va_list __gnuc_va_list;
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, T) __builtin_va_arg(ap, T)
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(d, s) __builtin_va_copy(d, s)
#endif
