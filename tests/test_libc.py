"""The C library functions cbam reads as C (frontend/libc.py, frontend/libc_src/*.c): each does
what glibc's does for every argument tried (both run side by side under gcc), a program that
calls them is verified through them and its counterexample replays against glibc's, and a
program's own definition of such a name is its own."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cbam.engine import api
from cbam.engine.frontend.libc import LIBC_DIR, MEMBERS

from .conftest import assert_replay_reaches_error, verify_src

STRINGS = ['""', '"a"', '"abc"', '"a,b;cd"', '"aab"', '"  -42x"', '"+17"', '"2147483647"', '"-2147483648"',
           '"\\t\\n 9"', '"x"', '"cdcd"', '"abcabc"', '"0"', '"-"', '"12 34"']
# For strtol and strtoul, each in every base of BASES (n indexes it): prefixes, digits past the
# base, the limits of long and unsigned long and one past them.
NUMBERS = ['"0x1A"', '"0X"', '"0xg"', '" -0x80000000"', '"077"', '"089"', '"z9Z"', '"-1"', '"+-1"',
           '"9223372036854775807"', '"9223372036854775808"', '"-9223372036854775808"', '"-9223372036854775809"',
           '"18446744073709551615"', '"18446744073709551616"', '"-18446744073709551616"', '"1010"', '"zz"']
BASES = [0, 2, 8, 10, 16, 36, 1, 37, -1]
# One expression per member: its result under cbam's definition (cbam_NAME) against glibc's,
# for every pair of strings s, t (and n from 0 to 8, and c among the strings' bytes and NUL).
CHECKS = {
    "memchr": "cbam_memchr(s, c, n < strlen(s) + 1 ? n : strlen(s) + 1) == memchr(s, c, n < strlen(s) + 1 ? n : strlen(s) + 1)",
    "strrchr": "cbam_strrchr(s, c) == strrchr(s, c)",
    "strnlen": "cbam_strnlen(s, n) == strnlen(s, n)",
    "strspn": "cbam_strspn(s, t) == strspn(s, t)",
    "strcspn": "cbam_strcspn(s, t) == strcspn(s, t)",
    "strpbrk": "cbam_strpbrk(s, t) == strpbrk(s, t)",
    "strstr": "cbam_strstr(s, t) == strstr(s, t)",
    "strncat": "strcmp(cbam_strncat(strcpy(b1, s), t, n), strncat(strcpy(b2, s), t, n)) == 0",
    "atoi": "cbam_atoi(s) == atoi(s)",
    "abs": "cbam_abs(k) == abs(k)",
    "labs": "cbam_labs(k) == labs(k)",
    "llabs": "cbam_llabs(k) == llabs(k)",
    "bsearch": "cbam_bsearch(&k, sorted, 7, sizeof(int), cmp) == bsearch(&k, sorted, 7, sizeof(int), cmp)",
    "strncpy": "memcmp(cbam_strncpy(memset(b1, 'q', 16), s, n), strncpy(memset(b2, 'q', 16), s, n), 16) == 0",
    "strtol": "same_strtol(s, bases[n]) && same_strtol(numbers[i % NUMBERS], bases[n])",
    "strtoul": "same_strtoul(s, bases[n]) && same_strtoul(numbers[j % NUMBERS], bases[n])",
    "__errno_location": "cbam___errno_location() == cbam___errno_location() && *cbam___errno_location() == 0",
    "__cbam_strto": "1",  # (strtol's and strtoul's parse: checked through them, above)
}
# Each returns what glibc's returns, ends where glibc's ends, and leaves errno as glibc's does.
STRTO = f"""
static const char *numbers[] = {{{', '.join(NUMBERS)}}};
#define NUMBERS {len(NUMBERS)}
static const int bases[] = {{{', '.join(map(str, BASES))}}};
#define SAME(name, type) static int same_##name(const char *s, int base) {{ \\
    char *e1 = 0, *e2 = 0; errno = 0; type a = cbam_##name(s, &e1, base); int x1 = errno; \\
    errno = 0; type b = name(s, &e2, base); int x2 = errno; \\
    if (a != b || e1 != e2 || x1 != x2) printf(#name "(\\"%s\\", %d)\\n", s, base); \\
    return a == b && e1 == e2 && x1 == x2; }}
SAME(strtol, long)
SAME(strtoul, unsigned long)
"""


def test_every_member_is_checked() -> None:
    assert MEMBERS == set(CHECKS)


def test_each_member_does_what_glibcs_does(tmp_path: Path) -> None:
    # (a member other members call, __cbam_*, keeps its new name for them)
    renamed = "".join(f"#define {m} cbam_{m}\n#include \"{LIBC_DIR}/{m}.c\"\n"
                      + ("" if m.startswith("__cbam_") else f"#undef {m}\n") for m in sorted(MEMBERS))
    checks = "".join(f'    if (!({expr})) {{ printf("{m}: s=\\"%s\\" t=\\"%s\\" n=%d c=%d k=%d\\n", s, t, n, c, k); '
                     "bad++; }\n" for m, expr in sorted(CHECKS.items()))
    prog = tmp_path / "libc_check.c"
    prog.write_text(
        "#include <errno.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
        "int __VERIFIER_nondet_int(void) { return 0; }\n" + renamed + STRTO +
        "static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n"
        f"static const char *strings[] = {{{', '.join(STRINGS)}}};\n"
        "int main(void) {\n  int bad = 0;\n  static const int sorted[7] = {1, 3, 3, 3, 5, 8, 8};\n"
        "  char b1[64], b2[64];\n"
        f"  for (unsigned i = 0; i < {len(STRINGS)}; i++) for (unsigned j = 0; j < {len(STRINGS)}; j++)\n"
        "  for (int n = 0; n <= 8; n++) {\n"
        "    const char *s = strings[i], *t = strings[j];\n"
        "    int c = t[0], k = (int)(i * 7 + j) - 60 + n;\n"
        f"{checks}"
        "  }\n  return bad != 0;\n}\n")
    exe = tmp_path / "libc_check"
    cc = subprocess.run(["gcc", "-w", "-fno-builtin", "-o", str(exe), str(prog)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout[:2000]


CALLS = """#include <assert.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    char s[8] = "a,b;cd";
    assert(strpbrk(s, ",;") == s + 1 && strcspn(s, ";") == 3 && strspn("aab", "a") == 2);
    assert(strrchr(s, 'c') == s + 4 && strrchr(s, 0) == s + 6);
    assert(strstr(s, "cd") == s + 4 && memchr(s, 'b', 6) == s + 2 && strnlen(s, 3) == 3);
    int x = __VERIFIER_nondet_int();
    if (x > -1000 && x < 1000) assert(abs(x) >= 0);
    assert(atoi("  -42x") == -42);
    char d[8] = "ab";
    strncat(d, "cdef", 2);
    assert(strcmp(d, "abcd") == 0);
    assert(strlen(d) == CHECK);
    return 0;
}
"""


def _refuted_and_replayed(bad: str, tmp_path: Path) -> None:
    """``bad`` is FALSE, and its harness, built by gcc against glibc, reaches the error."""
    path = tmp_path / "bad.c"
    path.write_text(bad)
    result = verify_src(bad, tmp_path, timeout=120, name="bad.c")
    assert result.verdict == "FALSE", result.reason
    assert_replay_reaches_error(path, result, "LP64", tmp_path)


def test_a_program_that_calls_them_is_proved_and_its_violation_replays_against_glibc(tmp_path: Path) -> None:
    result = verify_src(CALLS.replace("CHECK", "4"), tmp_path, timeout=120)
    assert result.verdict == "TRUE", result.reason
    assert verify_src(CALLS.replace("CHECK", "4"), tmp_path, timeout=120, property="memsafety").verdict == "TRUE"
    _refuted_and_replayed(CALLS.replace("CHECK", "5"), tmp_path)


def test_a_programs_own_definition_is_its_own_and_members_are_no_entry_points(tmp_path: Path) -> None:
    own = """#include <assert.h>
#include <string.h>
size_t strnlen(const char *s, size_t n) { (void)s; (void)n; return 42; }
int main(void) { assert(strnlen("ab", 1) == 42 && memchr("ab", 'b', 2) != 0); return 0; }
"""
    assert verify_src(own, tmp_path, timeout=60).verdict == "TRUE"
    lib = tmp_path / "lib.c"
    lib.write_text('#include <string.h>\nint has_comma(const char *s) { return strchr(s, 0) != 0 && '
                   "memchr(s, ',', strlen(s)) != 0; }\n")
    report = api.verify_entries(str(lib), options=api.VerifyOptions(timeout=60, replay=None))
    assert [e.name if hasattr(e, "name") else e for e in report.entries] == ["has_comma"]


STRTO_CALLS = """#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
    char *end;
    errno = 0;
    long v = strtol(" -0x1f!", &end, 16);
    assert(v == -31 && *end == '!' && errno == 0);
    unsigned long u = strtoul("99999999999999999999", &end, 10);
    assert(u == ULONG_MAX && errno == ERANGE && *end == 0);
    char buf[6];
    strncpy(buf, "abcdef", 4);
    buf[4] = 0;
    assert(strcmp(buf, "abcd") == 0);
    char digits[3] = {'0', '0', 0};
    digits[1] = (char)('0' + __VERIFIER_nondet_uchar() % 10);
    assert(strtol(digits, 0, 10) != CHECK);
    return 0;
}
"""


def test_strtol_sets_errno_through_a_member_that_another_member_calls(tmp_path: Path) -> None:
    """strtol's member calls __errno_location, itself a member: linked in as an archive is
    searched, and errno read by the program is the one strtol set."""
    for prop in ("unreach-call", "memsafety"):
        result = verify_src(STRTO_CALLS.replace("CHECK", "10"), tmp_path, timeout=120, property=prop)
        assert result.verdict == "TRUE", result.reason
    _refuted_and_replayed(STRTO_CALLS.replace("CHECK", "7"), tmp_path)


COMPARISONS = """#include <assert.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
    char a[8] = "abc", b[8] = "abd";
    unsigned char x[3] = {1, 0xff, 7}, y[3] = {1, 0x01, 9};
    a[2] = (char)(0x61 + __VERIFIER_nondet_uchar() % 3);
    int r = strcmp(a, b);
    assert(r == a[2] - 'd' && strncmp(a, b, 2) == 0);
    assert(memcmp(x, y, 3) == 0xfe && memcmp(y, x, 2) == -0xfe);
    assert(strncmp("c", "a", 1) == 2 && memcmp("c", "a", 1) == 1 && strcmp("c", "a") == 1);  /* (gcc folds) */
    char c[2] = "c";
    assert(strcmp(c, "a") == CHECK);
    return 0;
}
"""


def test_comparisons_return_glibcs_byte_difference(tmp_path: Path) -> None:
    """C promises only the sign; glibc's strcmp, strncmp and memcmp return the difference of
    the first differing bytes as unsigned chars, gcc folds strcmp and memcmp of two literals to
    -1, 0 or 1 (cfa/folding.py), and a program that tests for 1 reads what they give. Before,
    cbam said 1 for every such call and proved `strcmp(a, b) == 1` for "c" and "a", which fails
    when gcc runs it."""
    native = tmp_path / "native.c"
    native.write_text(COMPARISONS.replace("CHECK", "2").replace(
        "extern unsigned char __VERIFIER_nondet_uchar(void);",
        "unsigned char __VERIFIER_nondet_uchar(void) { static unsigned char v; return v++; }").replace(
        "int main(void) {", "int check(void) {") + "int main(void) { for (int i = 0; i < 3; i++) check(); return 0; }\n")
    exe = tmp_path / "native"
    # (built as the replay builds a harness: gcc's own folding of literals included)
    assert subprocess.run(["gcc", "-o", str(exe), str(native)]).returncode == 0
    assert subprocess.run([str(exe)]).returncode == 0  # gcc's and glibc's values, as the assertions say
    result = verify_src(COMPARISONS.replace("CHECK", "2"), tmp_path, timeout=120)
    assert result.verdict == "TRUE", result.reason
    _refuted_and_replayed(COMPARISONS.replace("CHECK", "1"), tmp_path)
