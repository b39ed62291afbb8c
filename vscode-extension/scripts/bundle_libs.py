"""Put cbam and its Python dependencies into vscode-extension/bundled/libs for one VS Code target,
as Microsoft's Python tool extensions carry theirs (microsoft/vscode-python-tools-extension-template).

    python scripts/bundle_libs.py [--target linux-x64]

cbam is built from this checkout; its dependencies are the target's wheels from PyPI, for
CPython 3.11's ABI (z3-solver and everything else but PyYAML are py3 wheels, so the bundle
serves every CPython >= 3.11 of the target's platform; PyYAML's optional C speed-up loads on
3.11 only, and PyYAML falls back to pure Python elsewhere). Modules are compiled with
unchecked-hash .pyc files, so a start-up does not compile ~1 MB of lsprotocol and pygls even
where the extension's folder is read-only or PYTHONDONTWRITEBYTECODE is set, whatever the
files' timestamps after unpacking.
"""

from __future__ import annotations

import argparse
import compileall
import py_compile
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTENSION = HERE.parent
ROOT = EXTENSION.parent

# VS Code's platform-specific targets and the wheels they take. z3-solver's Linux wheels need
# glibc 2.27 (manylinux_2_27); older tags are listed so pure-Python and older wheels match too.
# make test builds and runs linux-x64 only. linux-arm64 resolves (to z3-solver 4.13, the newest
# aarch64 wheel for these tags, 87 MB with its debug symbols) but has not been run.
PLATFORMS = {
    "linux-x64": ["manylinux_2_27_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"],
    "linux-arm64": ["manylinux_2_27_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"],
}
PYTHON_VERSION = "3.11"
# Not needed to run: headers and console scripts (whose shebangs name the build machine's Python).
PRUNE = ("bin", "z3/include")


def run(cmd: list[str]) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def _drop_unversioned_libz3(lib: Path) -> None:
    """z3-solver's wheel has libz3.so twice, as libz3.so.X.Y and as libz3.so (a wheel cannot hold
    a symbolic link): 29 MB twice. z3 loads the versioned name first and falls back to the
    plain one, so the plain copy goes when it is the same file."""
    plain = lib / "libz3.so"
    if not plain.is_file():
        return
    for versioned in lib.glob("libz3.so.*"):
        if versioned.read_bytes() == plain.read_bytes():
            plain.unlink()
            return


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", default="linux-x64", choices=sorted(PLATFORMS))
    ap.add_argument("--out", type=Path, default=EXTENSION / "bundled" / "libs")
    args = ap.parse_args(argv)
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    # setuptools builds the wheel from ROOT/build/lib and never empties it: a module removed or
    # renamed since an earlier build would still be packaged.
    for stale in ("lib", f"bdist.{sysconfig.get_platform()}"):
        shutil.rmtree(ROOT / "build" / stale, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="cbam-wheel-") as tmp:
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", tmp, str(ROOT)])
        [wheel] = Path(tmp).glob("cbam-*.whl")
        platforms = [a for p in PLATFORMS[args.target] for a in ("--platform", p)]
        run([sys.executable, "-m", "pip", "install", "--quiet", "--no-compile", "--target", str(out),
             "--only-binary=:all:", *platforms, "--python-version", PYTHON_VERSION, "--implementation", "cp",
             str(wheel)])
    for rel in PRUNE:
        shutil.rmtree(out / rel, ignore_errors=True)
    _drop_unversioned_libz3(out / "z3" / "lib")
    for cache in out.rglob("__pycache__"):
        shutil.rmtree(cache)
    if sys.version_info[:2] == tuple(int(x) for x in PYTHON_VERSION.split(".")):
        ok = compileall.compile_dir(str(out), quiet=1, workers=0,
                                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        if not ok:
            print("bundle_libs: some modules did not compile", file=sys.stderr)
            return 1
    else:
        print(f"bundle_libs: Python {sys.version_info[0]}.{sys.version_info[1]} is not {PYTHON_VERSION}: "
              "no .pyc files are bundled (each start-up compiles the modules it imports)", file=sys.stderr)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"bundle_libs: {args.target}: {size / 1e6:.1f} MB in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
