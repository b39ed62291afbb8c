"""Syntax errors name what the user wrote, not what cbam's stand-in headers expand it to."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.errors import FrontendError
from cbam.engine.frontend.preprocess import PreprocessOptions

MISSING_SEMICOLON_BEFORE_ASSERT = """#include <assert.h>
int main(void) {
  int x = 1
  assert(x == 1);
  return 0;
}
"""


def _error(path: Path, text: str | None) -> str:
    with pytest.raises(FrontendError) as exc:
        load_program(str(path), text=text, options=PreprocessOptions(data_model="LP64"))
    [d] = exc.value.diagnostics
    assert (d.file, d.line, d.col) == (str(path), 4, 3)
    return d.message


@pytest.mark.parametrize("from_buffer", [False, True])
def test_a_missing_semicolon_before_assert_says_assert(tmp_path: Path, from_buffer: bool) -> None:
    path = tmp_path / "s.c"
    path.write_text(MISSING_SEMICOLON_BEFORE_ASSERT if not from_buffer else "")
    message = _error(path, MISSING_SEMICOLON_BEFORE_ASSERT if from_buffer else None)
    assert "__cbam" not in message
    assert "before" in message and "assert" in message

