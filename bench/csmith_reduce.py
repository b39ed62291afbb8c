"""Reduce a disagreement between gcc and cbam with C-Vise.

    python bench/csmith_reduce.py build/csmith-campaign/arrays-100109 --model LP64 --kind ok \\
        --out tests/data/csmith/reduced/arrays-100109.c [--cbam-root DIR]

--kind ok: the stated program, which gcc runs to 0 and cbam calls FALSE; the interesting
property kept by the reduction is exactly that. --kind mutant: the mutant, which gcc runs into
reach_error and cbam calls TRUE. gcc's side is checked with AddressSanitizer and UBSan and with
-Werror on uninitialised reads, implicit declarations and missing returns, so that the
reduction cannot wander into a program whose behaviour C leaves undefined (where any answer
would be right). The reduced file gets a first line saying what gcc and cbam do with it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / ".venv" / "bin" / "python"

TEST = """\
#!/bin/sh
# cvise interestingness test: {what}
ulimit -t 120
# The error function must stay what it was (an abort), or gcc's exit status would not say
# whether the error is reached.
grep -qF 'void reach_error(void) {{ abort(); }}' {file} || exit 1
gcc -m{bits} -O1 -std=gnu11 -Werror=uninitialized -Werror=maybe-uninitialized -Werror=implicit-function-declaration \\
    -Werror=return-type -Werror=int-conversion -Werror=incompatible-pointer-types -Werror=implicit-int \\
    -fsanitize=address,undefined -fno-sanitize-recover=all -o t.exe {file} >/dev/null 2>&1 || exit 1
timeout 10 ./t.exe >/dev/null 2>err.txt
rc=$?
grep -q -e Sanitizer -e 'runtime error' err.txt && exit 1
[ $rc -eq {gcc_rc} ] || exit 1
cd {cbam_dir} && PYTHONPATH={cbam_root} timeout 120 {py} -m cbam verify --no-cache --no-progress --timeout 30 \\
    --data-model {model} "$OLDPWD/{file}" >/dev/null 2>&1
[ $? -eq {cbam_rc} ]
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", type=Path, help="a folder kept by the campaign (ok.c, mutant.c)")
    ap.add_argument("--model", choices=("LP64", "ILP32"), required=True)
    ap.add_argument("--kind", choices=("ok", "mutant"), required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--cbam-root", type=Path, default=ROOT)
    ap.add_argument("--timeout", type=int, default=3600, help="for the whole reduction")
    args = ap.parse_args()
    if shutil.which("cvise") is None:
        sys.exit("cvise is not installed")
    bits = 64 if args.model == "LP64" else 32
    # gcc: 0 for the stated program; 134 (SIGABRT: reach_error's abort) for the mutant.
    # cbam: 1 (FALSE) on the stated program, 0 (TRUE) on the mutant.
    gcc_rc, cbam_rc = (0, 1) if args.kind == "ok" else (134, 0)
    what = ("gcc runs it to 0, cbam says FALSE" if args.kind == "ok"
            else "gcc's run reaches reach_error, cbam says TRUE")
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        src = work / "case.c"
        shutil.copy(args.case / f"{args.kind}.c", src)
        test = work / "test.sh"
        test.write_text(TEST.format(what=what, bits=bits, file="case.c", gcc_rc=gcc_rc, cbam_rc=cbam_rc,
                                    cbam_dir=args.cbam_root, cbam_root=args.cbam_root, py=PY, model=args.model))
        test.chmod(test.stat().st_mode | stat.S_IXUSR)
        if subprocess.run(["sh", str(test)], cwd=work).returncode != 0:
            sys.exit(f"{args.case}: not interesting to begin with ({what} does not hold)")
        # cvise wants the test case named relative to its working directory; one process (--n 1)
        # because the machine is shared.
        subprocess.run(["cvise", "--n", "1", "--timeout", "300", "./test.sh", "case.c"], cwd=work, check=True,
                       timeout=args.timeout, env=dict(os.environ), stdout=subprocess.DEVNULL)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        expect = "TRUE" if args.kind == "ok" else "FALSE"
        args.out.write_text(f"// expect: {expect} data-model={args.model} (reduced from {args.case.name}, {args.kind}.c: "
                            f"{what})\n" + src.read_text())
    print(args.out)


if __name__ == "__main__":
    main()
