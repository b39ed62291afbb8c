"""The stand-in for z3 (engine/smt/lazy_z3.py): the real package on first use, from any thread."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT

_PROBE = """
import sys, threading
import cbam.engine  # installs the stand-in
import z3 as early
assert "z3.z3" not in sys.modules, "imported with the engine"
from cbam.engine.smt import lazy_z3
assert not lazy_z3.loaded()
got = []
barrier = threading.Barrier(4)
def use():
    barrier.wait()
    got.append(early.BitVecVal(5, 8).as_long())
threads = [threading.Thread(target=use) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
assert got == [5, 5, 5, 5], got
import z3 as late
assert late is sys.modules["z3"] and late is not early
assert early.ExprRef is late.ExprRef and early.z3 is late.z3  # one package, seen through both
assert isinstance(late.Int("x"), early.ArithRef)
try:
    early.no_such_name
except AttributeError as exc:
    assert "no_such_name" in str(exc)
else:
    raise AssertionError("a missing name must raise AttributeError")
print("ok")
"""


def test_the_stand_in_loads_z3_once_on_first_use_from_concurrent_threads():
    r = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_an_already_imported_z3_is_left_alone():
    r = subprocess.run([sys.executable, "-c", "import z3, sys; real = sys.modules['z3']; import cbam.engine; "
                        "assert sys.modules['z3'] is real; print('ok')"], capture_output=True, text=True, cwd=ROOT,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
