/* cbam stand-in for <stdlib.h>. abort() and exit() end a path. */
#ifndef __CBAM_STDLIB_H
#define __CBAM_STDLIB_H
#define __need_size_t
#define __need_wchar_t
#define __need_NULL
#include <stddef.h>
#include <alloca.h> /* as glibc's <stdlib.h> does */
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define WNOHANG 1 /* glibc's stdlib.h has the wait flags too */
#define WUNTRACED 2
#define WSTOPPED 2
#define WEXITED 4
#define WCONTINUED 8
#define WNOWAIT 0x01000000
#define MB_CUR_MAX 1 /* the "C" locale's: glibc's asks the locale (__ctype_get_mb_cur_max) */
typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;
void abort(void);
void exit(int __status);
void _Exit(int __status);
void *malloc(size_t __size);
void *calloc(size_t __n, size_t __size);
void *realloc(void *__ptr, size_t __size);
void free(void *__ptr);
int abs(int __x);
long labs(long __x);
long long llabs(long long __x);
int atoi(const char *__s);
long atol(const char *__s);
long strtol(const char *__s, char **__end, int __base);
unsigned long strtoul(const char *__s, char **__end, int __base);
int rand(void);
void srand(unsigned int __seed);
char *getenv(const char *__name);
long long atoll(const char *__s);
long long strtoll(const char *__s, char **__end, int __base);
unsigned long long strtoull(const char *__s, char **__end, int __base);
div_t div(int __n, int __d);
ldiv_t ldiv(long __n, long __d);
lldiv_t lldiv(long long __n, long long __d);
void qsort(void *__base, size_t __n, size_t __size, int (*__cmp)(const void *, const void *));
void *bsearch(const void *__key, const void *__base, size_t __n, size_t __size,
              int (*__cmp)(const void *, const void *));
int atexit(void (*__f)(void));
int system(const char *__command);
void *aligned_alloc(size_t __align, size_t __size);
int posix_memalign(void **__p, size_t __align, size_t __size);
int setenv(const char *__name, const char *__value, int __replace);
int unsetenv(const char *__name);
int mkstemp(char *__template);
#endif
