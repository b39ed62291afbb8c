/* cbam stand-in for <stdlib.h>. abort() and exit() end a path. */
#ifndef __CBAM_STDLIB_H
#define __CBAM_STDLIB_H
#include <stddef.h>
#include <alloca.h> /* as glibc's <stdlib.h> does */
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
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
#endif
