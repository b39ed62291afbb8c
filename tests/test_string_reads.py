"""Memory safety of the string functions cbam models: exactly the bytes they read.

strcmp reads both strings up to the first byte that differs or is NUL, strchr up to the character
or a NUL, memcmp its n bytes. They were "functions cbam cannot encode" under memsafety (UNKNOWN),
although the path encoding models them; a check that asked for a NUL in bounds would flag a
strcmp of an unterminated array that differs at once, which gcc's AddressSanitizer does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import assert_replay_shows_memory_error, verify_src

HEAD = "#include <string.h>\nextern int __VERIFIER_nondet_int(void);\n"

SAFE = {
    "terminated strings": 'char a[] = "hello", b[] = "help"; return strcmp(a, b) + (strchr(a, \'l\') != 0)'
                          ' + memcmp(a, b, 3);',
    "strcmp stops at the first difference": 'char a[5] = "hello"; char b[] = "help"; return strcmp(b, a + 4);',
    "strchr stops at the character": 'char a[5] = "hello"; return strchr(a, \'l\') == a + 2;',
    "memcmp within both": 'char a[4] = "abcd"; char b[4] = "abce"; return memcmp(a, b, 4) < 0;',
}

UNSAFE = {
    "strcmp past an unterminated array": 'char a[5] = "hello"; char b[] = "hello!"; return strcmp(a, b);',
    "strchr past an unterminated array": 'char a[5] = "hello"; return strchr(a, \'z\') != 0;',
    "memcmp longer than an array": 'char a[5] = "hello"; char b[] = "help"; return memcmp(a, b, 6);',
}


@pytest.mark.parametrize("name", sorted(SAFE))
def test_safe_reads(name: str, tmp_path: Path) -> None:
    r = verify_src(HEAD + "int main(void) { " + SAFE[name] + " }\n", tmp_path, timeout=60, property="memsafety")
    assert r.verdict == "TRUE", (r.verdict, r.reason)


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_reads_out_of_bounds(name: str, tmp_path: Path) -> None:
    r = verify_src(HEAD + "int main(void) { " + UNSAFE[name] + " }\n", tmp_path, timeout=60, property="memsafety")
    assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref", (r.verdict, r.reason)
    assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)


def test_input_decides(tmp_path: Path) -> None:
    """Which string is compared depends on an input: only one choice reads out of bounds."""
    code = HEAD + """int main(void) {
  char a[3] = { 'a', 'b', 'c' };
  char b[] = "abd", c[] = "abc";
  int n = __VERIFIER_nondet_int();
  return strcmp(a, n == 7 ? c : b);
}
"""
    r = verify_src(code, tmp_path, timeout=60, property="memsafety")
    assert r.verdict == "FALSE"
    assert [i.value for i in r.violations[0].inputs] == [7]
    assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)
