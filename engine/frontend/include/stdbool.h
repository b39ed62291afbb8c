/* cbam stand-in for <stdbool.h>. */
#ifndef __CBAM_STDBOOL_H
#define __CBAM_STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1
#endif
