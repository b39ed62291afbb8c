/* Not upstream: jsmn is a header-only library. This translation unit compiles its
   implementation (jsmn.h without JSMN_HEADER), so that harnesses, which include jsmn.h with
   JSMN_HEADER defined (declarations only), link against it as a separate object. */
#include "../jsmn.h"
