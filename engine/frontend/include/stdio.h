/* cbam stand-in for <stdio.h>. Output functions do not touch program variables. */
#ifndef __CBAM_STDIO_H
#define __CBAM_STDIO_H
#include <stddef.h>
typedef struct __cbam_FILE FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define EOF (-1)
int printf(const char *__fmt, ...);
int fprintf(FILE *__f, const char *__fmt, ...);
int sprintf(char *__s, const char *__fmt, ...);
int snprintf(char *__s, size_t __n, const char *__fmt, ...);
int scanf(const char *__fmt, ...);
int sscanf(const char *__s, const char *__fmt, ...);
int vprintf(const char *__fmt, __builtin_va_list __ap);
int vfprintf(FILE *__f, const char *__fmt, __builtin_va_list __ap);
int vsprintf(char *__s, const char *__fmt, __builtin_va_list __ap);
int vsnprintf(char *__s, size_t __n, const char *__fmt, __builtin_va_list __ap);
int puts(const char *__s);
int fputs(const char *__s, FILE *__f);
int putchar(int __c);
int getchar(void);
int fflush(FILE *__f);
FILE *fopen(const char *__path, const char *__mode);
int fclose(FILE *__f);
char *fgets(char *__s, int __n, FILE *__f);
int fgetc(FILE *__f);
int fputc(int __c, FILE *__f);
void perror(const char *__s);
#endif
