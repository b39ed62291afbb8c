/* cbam stand-in for <stdio.h>. Output functions do not touch program variables. */
#ifndef __CBAM_STDIO_H
#define __CBAM_STDIO_H
#define __need_size_t
#define __need_NULL
#include <stddef.h>
typedef struct __cbam_FILE FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define L_tmpnam 20
#define L_ctermid 9
#define TMP_MAX 238328
#define P_tmpdir "/tmp"
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
typedef struct __cbam_fpos fpos_t;
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
int getc(FILE *__f);
int putc(int __c, FILE *__f);
int ungetc(int __c, FILE *__f);
size_t fread(void *__p, size_t __size, size_t __n, FILE *__f);
size_t fwrite(const void *__p, size_t __size, size_t __n, FILE *__f);
int fseek(FILE *__f, long __offset, int __whence);
long ftell(FILE *__f);
void rewind(FILE *__f);
int fgetpos(FILE *__f, fpos_t *__pos);
int fsetpos(FILE *__f, const fpos_t *__pos);
int feof(FILE *__f);
int ferror(FILE *__f);
void clearerr(FILE *__f);
int remove(const char *__path);
int rename(const char *__old, const char *__new);
FILE *tmpfile(void);
char *tmpnam(char *__s);
FILE *freopen(const char *__path, const char *__mode, FILE *__f);
int setvbuf(FILE *__f, char *__buf, int __mode, size_t __size);
void setbuf(FILE *__f, char *__buf);
int fscanf(FILE *__f, const char *__fmt, ...);
int vscanf(const char *__fmt, __builtin_va_list __ap);
int vfscanf(FILE *__f, const char *__fmt, __builtin_va_list __ap);
int vsscanf(const char *__s, const char *__fmt, __builtin_va_list __ap);
FILE *fdopen(int __fd, const char *__mode);
int fileno(FILE *__f);
#endif
