"""printf and the C library's other output functions (cfa/output_calls.py): a program that
prints is verified as if the prints read their strings and wrote nothing, in every consumer
(the value analysis, the path check, the memory-safety checks); the replay runs the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cfa.ctype import DataModel
from cbam.engine.cfa.ir import Const, StrLit, Var
from cbam.engine.cfa.output_calls import string_reads, writes_nothing
from cbam.engine.options import NativeReplay

from .conftest import assert_replay_reaches_error, verify_src

DM = DataModel("LP64")
CHARP = DM.pointer(DM.char)


def _fmt(text: str) -> StrLit:
    return StrLit(f'"{text}"', CHARP)


@pytest.mark.parametrize("name, args, reads", [
    ("printf", [_fmt("%d %s %c\\n"), Const(1, DM.int), "s", Const(2, DM.int)], ["s"]),
    ("printf", [_fmt("100%% %-8s|%5.2f"), "s", Const(0, DM.int)], ["s"]),
    ("fprintf", ["f", _fmt("%s%s"), "a", "b"], ["a", "b"]),
    ("puts", ["s"], ["s"]),
    ("putchar", [Const(65, DM.int)], []),
    ("printf", [_fmt("%n"), "p"], None),  # writes through its argument
    ("printf", [_fmt("%.3s"), "s"], None),  # may read a string without its NUL
    ("printf", [_fmt("%*d"), Const(3, DM.int), Const(1, DM.int)], None),
    ("printf", ["fmt"], None),  # a format that is not a literal
    ("printf", [_fmt("%s")], None),  # fewer arguments than conversions
    ("strlen", ["s"], None),  # not an output function
])
def test_what_a_call_reads(name: str, args: list, reads: list | None) -> None:
    exprs = [Var(a, CHARP) if isinstance(a, str) else a for a in args]
    got = string_reads(name, exprs)
    assert (None if got is None else [e.name for e in got]) == reads


PRINTS = """#include <assert.h>
#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    char buf[8];
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 6) return 0;
    memset(buf, 'a', (size_t)n);
    buf[n] = '\\0';
    printf("buf=%s len=%d\\n", buf, n);
    puts(buf);
    fprintf(stderr, "%s\\n", buf);
    assert(strlen(buf) == (size_t)n && (n == 0 || buf[0] == 'a'));
    assert(n != BAD);
    return 0;
}
"""


@pytest.mark.parametrize("name, args, writes", [
    ("printf", [_fmt("%.*s|%d"), Const(3, DM.int), "s", Const(1, DM.int)], False),  # (reads beyond the table)
    ("printf", [_fmt("%*d"), Const(3, DM.int), Const(1, DM.int)], False),
    ("puts", ["s"], False),
    ("printf", [_fmt("%d%n"), Const(1, DM.int), "p"], True),
    ("printf", ["fmt"], True),  # a format that is not a literal may hold %n
    ("strcpy", ["d", "s"], True),  # not an output function
])
def test_which_calls_write_none_of_the_programs_memory(name: str, args: list, writes: bool) -> None:
    """The value analysis keeps what it knows across such a call, a %.*s one included (jsmn's
    test helper prints tokens so), which the memory-safety checks still treat as unmodelled."""
    exprs = [Var(a, CHARP) if isinstance(a, str) else a for a in args]
    assert writes_nothing(name, exprs) is not writes


def test_a_program_that_prints_is_proved_and_its_violation_replays(tmp_path: Path) -> None:
    assert verify_src(PRINTS.replace("BAD", "7"), tmp_path, timeout=120).verdict == "TRUE"
    bad = PRINTS.replace("BAD", "5")
    path = tmp_path / "bad.c"
    path.write_text(bad)
    result = verify_src(bad, tmp_path, timeout=120, name="bad.c")
    assert result.verdict == "FALSE", result.reason
    assert_replay_reaches_error(path, result, "LP64", tmp_path)


UNTERMINATED = """#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int k = __VERIFIER_nondet_int();
    if (k < 0 || k > LAST) return 0;
    char *s = malloc(4);
    if (!s) return 0;
    memset(s, 'x', 4);
    if (k < 4) s[k] = 0;
    fprintf(stderr, "[%s] %d\\n", s, k);
    free(s);
    return 0;
}
"""


def test_printing_a_string_without_its_nul_is_an_invalid_read(tmp_path: Path) -> None:
    ok = verify_src(UNTERMINATED.replace("LAST", "3"), tmp_path, timeout=120, property="memsafety")
    assert ok.verdict == "TRUE", ok.reason
    bad = UNTERMINATED.replace("LAST", "4")
    path = tmp_path / "bad.c"
    path.write_text(bad)
    result = verify_src(bad, tmp_path, timeout=120, name="bad.c", property="memsafety",
                        replay=NativeReplay(source=str(path)))
    assert result.verdict == "FALSE" and result.violations[0].kind == "valid-deref", result.reason
    assert result.violations[0].replay is not None and str(result.violations[0].replay.status) == "replayed"
