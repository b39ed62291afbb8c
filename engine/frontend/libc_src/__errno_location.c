/* Where glibc's errno lives (<errno.h>: errno is (*__errno_location ())): one int of the
   program's one thread, 0 at the start. */
static int errno_value;
int *__errno_location(void)
{
    return &errno_value;
}
