/* cbam stand-in for <string.h>. */
#ifndef __CBAM_STRING_H
#define __CBAM_STRING_H
#define __need_size_t
#define __need_NULL
#include <stddef.h>
void *memset(void *__s, int __c, size_t __n);
void *memcpy(void *__d, const void *__s, size_t __n);
void *memmove(void *__d, const void *__s, size_t __n);
int memcmp(const void *__a, const void *__b, size_t __n);
size_t strlen(const char *__s);
int strcmp(const char *__a, const char *__b);
int strncmp(const char *__a, const char *__b, size_t __n);
char *strcpy(char *__d, const char *__s);
char *strncpy(char *__d, const char *__s, size_t __n);
char *strcat(char *__d, const char *__s);
char *strchr(const char *__s, int __c);
char *strrchr(const char *__s, int __c);
char *strstr(const char *__h, const char *__n);
char *strdup(const char *__s);
char *strndup(const char *__s, size_t __n);
void *memchr(const void *__s, int __c, size_t __n);
size_t strnlen(const char *__s, size_t __n);
char *strncat(char *__d, const char *__s, size_t __n);
size_t strspn(const char *__s, const char *__accept);
size_t strcspn(const char *__s, const char *__reject);
char *strpbrk(const char *__s, const char *__accept);
char *strtok(char *__s, const char *__delim);
char *strerror(int __errnum);
int strcoll(const char *__a, const char *__b);
size_t strxfrm(char *__d, const char *__s, size_t __n);
#endif
