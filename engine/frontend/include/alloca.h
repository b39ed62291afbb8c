/* cbam stand-in for <alloca.h>. alloca's object lives until its caller returns. */
#ifndef __CBAM_ALLOCA_H
#define __CBAM_ALLOCA_H
#define __need_size_t
#include <stddef.h>
void *alloca(size_t __size);
#endif
