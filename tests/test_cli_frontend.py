"""Bad input through the CLI: gcc-style messages, exit status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest


def cbam(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cbam", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.parametrize("command", ["cfa", "verify"])
def test_syntax_error(tmp_path, command):
    f = tmp_path / "bad.c"
    f.write_text("int main(void) {\n  int x = ;\n  return 0;\n}\n")
    r = cbam(command, str(f))
    assert r.returncode == 2
    assert f"{f}:2:" in r.stderr and "error" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


@pytest.mark.parametrize("command", ["cfa", "verify"])
def test_missing_header(tmp_path, command):
    f = tmp_path / "inc.c"
    f.write_text("#include <nonexistent_header.h>\nint main(void) { return 0; }\n")
    r = cbam(command, str(f))
    assert r.returncode == 2
    assert f"{f}:1:10: error: header nonexistent_header.h not found" in r.stderr
    assert "Traceback" not in r.stderr


def test_unsupported_construct_in_cfa(tmp_path):
    f = tmp_path / "fp.c"
    f.write_text("int main(void) {\n  double d = 1.5;\n  return (int)d;\n}\n")
    r = cbam("cfa", str(f))
    assert r.returncode == 2
    assert f"{f}:2:" in r.stderr and "floating-point" in r.stderr
    assert "Traceback" not in r.stderr


def test_unsupported_construct_reachable_gives_unknown_with_location(tmp_path):
    f = tmp_path / "fp.c"
    f.write_text("float g(float x) { return x * 2; }\nint main(void) {\n  g(1);\n  return 0;\n}\n")
    r = cbam("verify", str(f))
    assert r.returncode == 3
    assert "unsupported feature: floating-point" in r.stdout
    assert f"{f}:1:" in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith("Verification result: UNKNOWN")


def test_unsupported_function_does_not_stop_others(tmp_path):
    f = tmp_path / "mixed.c"
    f.write_text("double unused(double d) { return d; }\nint main(void) { int x = 1; return x; }\n")
    r = cbam("verify", str(f))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning: unsupported: floating-point" in r.stdout


def test_binary_and_missing_files(tmp_path):
    b = tmp_path / "blob.c"
    b.write_bytes(b"\x7fELF\x00\x00\x01")
    r = cbam("verify", str(b))
    assert r.returncode == 2 and "binary file" in r.stderr
    r = cbam("verify", str(tmp_path / "nope.c"))
    assert r.returncode == 2 and "cannot read file" in r.stderr


def test_cfa_dot_output(tmp_path):
    f = tmp_path / "p.c"
    f.write_text("int main(void) { int x = 0; while (x < 3) x++; return x; }\n")
    r = cbam("cfa", str(f), "--dot", "--function", "main")
    assert r.returncode == 0
    assert r.stdout.startswith("digraph cfa {") and "x < 3" in r.stdout and "->" in r.stdout
    r = cbam("cfa", str(f), "--function", "nope")
    assert r.returncode == 2


def test_usage_errors_exit_2():
    r = cbam("verify")
    assert r.returncode == 2
    r = cbam("frobnicate")
    assert r.returncode == 2
