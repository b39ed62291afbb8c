// expect: TRUE
// property: memsafety
// link: ../ini.c
// flags: -DINI_MAX_LINE=20
// why: inih's own ini_parse_string test (tests/unittest_string.c, upstream, built with INI_MAX_LINE=20 as upstream's test script does) only prints what the handler sees, which matches tests/baseline_string.txt natively; it has no assertion, so it is checked for memory safety: every line, long ones included, stays within the 20-byte line buffer.
/* inih's own test of ini_parse_string(), included as is. */
#include "../tests/unittest_string.c"
