/* cbam stand-in for <tgmath.h>: glibc's needs gcc's own builtins (__builtin_tgmath). Here the
   type-generic names are the double functions of <math.h> and <complex.h>; cbam reads a
   floating-point value as an arbitrary value of its type, which the narrower or wider
   function's result is too. */
#ifndef __CBAM_TGMATH_H
#define __CBAM_TGMATH_H
#include <math.h>
#include <complex.h>
#endif
