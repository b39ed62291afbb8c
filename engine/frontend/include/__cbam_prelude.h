/* Included first by cbam's preprocessing step. */
typedef long long __cbam_int128;
void __cbam_assert(int __cond);

/* Variable arguments, as gcc's builtins give them on x86 Linux. A call of a variadic function
   the program defines stores its promoted extra arguments in an object of its own frame, one
   word-aligned slot each (4 bytes on i386, 8 on x86-64), and passes the callee its address as
   the hidden parameter __cbam_va_area (cfa/translate/calls.py); va_list walks that object.
   i386's va_list is a char *; x86-64's an array of one struct __va_list_tag, whose
   overflow_arg_area does the walking here (so va_list has its size, 24, and decays to a
   pointer when passed on, as there). */
#if __SIZEOF_POINTER__ == 8
struct __va_list_tag {
    unsigned int gp_offset;
    unsigned int fp_offset;
    char *overflow_arg_area;
    char *reg_save_area;
};
typedef struct __va_list_tag __cbam_va_list[1];
#define __CBAM_VA_CURSOR(ap) ((ap)[0].overflow_arg_area)
#define __CBAM_VA_SLOT(T) ((sizeof(T) + 7ul) & ~7ul)
#define __builtin_va_copy(d, s) ((void)((d)[0] = (s)[0]))
#else
typedef char *__cbam_va_list;
#define __CBAM_VA_CURSOR(ap) (ap)
#define __CBAM_VA_SLOT(T) ((sizeof(T) + 3u) & ~3u)
#define __builtin_va_copy(d, s) ((void)((d) = (s)))
#endif
#define __builtin_va_list __cbam_va_list
#define __builtin_va_start(ap, last) ((void)(__CBAM_VA_CURSOR(ap) = __cbam_va_area))
#define __builtin_va_arg(ap, T) \
    (*(__typeof__(T) *)((__CBAM_VA_CURSOR(ap) += __CBAM_VA_SLOT(T)) - __CBAM_VA_SLOT(T)))
#define __builtin_va_end(ap) ((void)(ap))
#define __va_copy(d, s) __builtin_va_copy(d, s)
