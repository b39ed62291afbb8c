/* cbam stand-in for <assert.h>: a failed assert is an error event. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) __cbam_assert(e)
#endif
void __assert_fail(const char *__assertion, const char *__file, unsigned int __line, const char *__function);
#define static_assert _Static_assert
