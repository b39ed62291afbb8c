"""The system's headers, read as gcc reads them (frontend/preprocess.search_path): every C11
header and the common POSIX ones parse, what they say about the machine is gcc's
(frontend/target.py), and a program's verdict over them is what running it under gcc gives."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cbam.engine.frontend import target
from cbam.engine.frontend.preprocess import DATA_MODELS, PreprocessOptions

from .conftest import M32, assert_replay_reaches_error, load_src, verify_src

C11 = ("assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal stdalign "
       "stdarg stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath threads time uchar "
       "wchar wctype").split()
POSIX = ("unistd sys/types sys/stat fcntl strings memory pthread dirent sys/time sys/wait poll getopt "
         "libgen sys/mman sys/socket netinet/in arpa/inet").split()
ALL_HEADERS = "".join(f"#include <{h}.h>\n" for h in C11 + POSIX)

MODELS = ["LP64", pytest.param("ILP32", marks=pytest.mark.skipif(not M32, reason="gcc -m32 is not installed"))]


@pytest.mark.parametrize("data_model", MODELS)
def test_every_standard_and_common_posix_header_parses(tmp_path: Path, data_model: str) -> None:
    code = ALL_HEADERS + "int main(void) { return 0; }\n"
    flag = "-m32" if data_model == "ILP32" else "-m64"
    (tmp_path / "gcc.c").write_text(code)
    assert subprocess.run(["gcc", flag, "-fsyntax-only", str(tmp_path / "gcc.c")]).returncode == 0
    program = load_src(code, tmp_path, data_model=data_model)
    assert "main" in program.functions
    assert not [d for d in program.diagnostics if d.severity == "error"]


# What the headers say, as gcc compiles it: the verdict is TRUE exactly when the program runs
# to its end under gcc (checked below by running it).
FACTS = """#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <uchar.h>
#include <unistd.h>
#include <wchar.h>
int main(void) {
    assert(sizeof(size_t) == sizeof(void *) && sizeof(ptrdiff_t) == sizeof(void *));
    assert(sizeof(off_t) == 8 || sizeof(off_t) == sizeof(long));
    assert(sizeof(int64_t) == 8 && INT64_MAX == 9223372036854775807LL);
    assert(sizeof(intmax_t) == 8 && sizeof(wchar_t) == 4 && sizeof(char16_t) == 2);
    assert(CHAR_BIT == 8 && LONG_MAX == (long)(~0UL >> 1));
    assert(EINVAL == 22 && ENOMEM == 12 && SEEK_END == 2 && STDERR_FILENO == 2);
    assert(FLT_RADIX == 2 && DBL_MANT_DIG == 53 && FLT_MANT_DIG == 24);
    assert(EOF == -1 && BUFSIZ == BUFFER);
    return 0;
}
"""


@pytest.mark.parametrize("data_model", MODELS)
def test_what_the_headers_say_is_what_gcc_compiles(tmp_path: Path, data_model: str) -> None:
    code = FACTS.replace("BUFFER", "8192")
    result = verify_src(code, tmp_path, data_model=data_model, timeout=60)
    assert result.verdict == "TRUE", result.reason
    # One fact off: the counterexample is the program itself, and gcc's run fails on it.
    bad = FACTS.replace("BUFFER", "4096")
    path = tmp_path / "bad.c"
    path.write_text(bad)
    result = verify_src(bad, tmp_path, data_model=data_model, timeout=60, name="bad.c")
    assert result.verdict == "FALSE", result.reason
    assert_replay_reaches_error(path, result, data_model, tmp_path)


def test_the_shipped_machine_description_is_gccs() -> None:
    shipped = Path(target.HEADER).read_text()
    assert shipped == target.header_text(), "regenerate with: python -m cbam.engine.frontend.target"
    # cbam has no 128-bit integers: a program asking for them takes its other branch.
    assert "__SIZEOF_INT128__" not in shipped and "__GNUC__" not in shipped


def test_a_relative_include_folder_is_read_from_the_current_directory(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "answer.h").write_text("#define ANSWER 42\n")
    (tmp_path / "src").mkdir()
    src = tmp_path / "src" / "p.c"
    src.write_text('#include <assert.h>\n#include "answer.h"\nint main(void) { assert(ANSWER == 42); return 0; }\n')
    run = [sys.executable, "-m", "cbam", "verify", "--no-cache", "-I", "inc", str(src)]
    assert subprocess.run(run, cwd=tmp_path, capture_output=True, text=True).returncode == 0
    missing = subprocess.run(run, cwd=tmp_path / "src", capture_output=True, text=True)
    assert missing.returncode == 2
    assert re.search(r"header answer\.h not found .*a relative -I is read from the current directory",
                     missing.stderr), missing.stderr


def test_options_default_to_no_include_folders() -> None:
    assert PreprocessOptions().include_paths == ()


# ---- cbam's own headers say what glibc's say ------------------------------------------------
INCLUDE = Path(target.HEADER).parent
OWN = ["stdio", "stdlib", "string", "limits", "stdint", "stddef", "wchar", "uchar", "alloca", "ctype"]
# glibc's macros an own header leaves out, and why.
NOT_OWN = {
    "stdio": {"stdin", "stdout", "stderr",  # glibc names the objects after themselves
              "fscanf", "scanf", "sscanf", "vfscanf", "vscanf", "vsscanf",  # renamed to C99's versions
              "va_arg", "va_copy", "va_end", "va_start"},  # <stdarg.h>'s, which glibc's stdio.h leaks
    # <sys/types.h>, <endian.h> and <sys/wait.h>, which glibc's stdlib.h includes under _DEFAULT_SOURCE
    "stdlib": {"BIG_ENDIAN", "BYTE_ORDER", "LITTLE_ENDIAN", "PDP_ENDIAN", "FD_SETSIZE", "NFDBITS"},
    "string": {"strerror_r"},  # renamed to the XSI version
}


def _object_macros(code: str, flag: str, own: bool) -> dict[str, str]:
    cmd = ["gcc", flag, "-undef", "-dM", "-E", "-x", "c", "-"]
    if own:
        model = DATA_MODELS["ILP32" if flag == "-m32" else "LP64"]
        cmd[1:1] = [*(f"-D{k}={v}" for k, v in model.items()), "-nostdinc", "-isystem", str(INCLUDE),
                    "-include", target.HEADER, "-include", str(INCLUDE / "__cbam_prelude.h")]
    out = subprocess.run(cmd, input=code, capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"#define ([A-Za-z][A-Za-z0-9_]*) (.*)$", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def _declarations(header: str, flag: str) -> list[str]:
    """The own header's declarations, as the preprocessor leaves them for ``flag``."""
    model = DATA_MODELS["ILP32" if flag == "-m32" else "LP64"]
    cmd = ["gcc", flag, "-undef", "-P", "-E", "-x", "c", *(f"-D{k}={v}" for k, v in model.items()), "-nostdinc",
           "-isystem", str(INCLUDE), "-include", str(INCLUDE / "__cbam_target.h"), "-"]
    text = subprocess.run(cmd, input=f"#include <{header}.h>\n", capture_output=True, text=True, check=True).stdout
    decls, cur, depth = [], "", 0
    for ch in " ".join(text.split()):
        cur += ch
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == ";" and depth == 0:
            decls.append(cur.strip())
            cur = ""
    # Opaque or struct types are cbam's own (FILE, fpos_t, div_t): only their names must agree.
    return [d for d in decls if not d.startswith("typedef struct")]


# glibc's value is no constant (the locale's), so it is compared by its meaning in the "C" locale.
RUNTIME = {"MB_CUR_MAX"}


@pytest.mark.parametrize("data_model", MODELS)
@pytest.mark.parametrize("header", OWN)
def test_an_own_header_declares_what_glibcs_does(tmp_path: Path, header: str, data_model: str) -> None:
    flag = "-m32" if data_model == "ILP32" else "-m64"
    decls = _declarations(header, flag)
    # Each declaration again after glibc's header: a function or type that differs is an error.
    check = tmp_path / "check.c"
    check.write_text(f"#include <{header}.h>\n" + "\n".join(decls) + "\n")
    cc = subprocess.run(["gcc", flag, "-std=gnu11", "-fsyntax-only", "-Werror", str(check)], capture_output=True,
                        text=True)
    assert cc.returncode == 0, cc.stderr
    # Each macro with glibc's value (compared by what the compiler computes from both).
    own = _object_macros(f"#include <{header}.h>\n", flag, own=True)
    glibc = _object_macros(f"#include <{header}.h>\n", flag, own=False)
    shared = sorted(n for n in own if n in glibc and not n.startswith("_") and n not in RUNTIME | {"NULL"})
    asserts = "".join(f"_Static_assert(({own[n]}) == ({n}), \"{n}\");\n" for n in shared
                      if not own[n].startswith('"'))
    check.write_text(f"#include <{header}.h>\n{asserts}")
    cc = subprocess.run(["gcc", flag, "-fsyntax-only", str(check)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    assert all(own[n] == glibc[n] for n in shared if own[n].startswith('"'))
    if header in NOT_OWN:
        missing = {n for n in glibc if not n.startswith("_") and n not in own and "(" not in glibc[n]}
        missing = {n for n in missing if not re.match(r"#define", n)}
        assert missing <= NOT_OWN[header], f"glibc's <{header}.h> defines {sorted(missing - NOT_OWN[header])}"


# ---- <ctype.h>: glibc's "C" locale, value for value -------------------------------------------
CTYPE = "isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace isupper isxdigit " \
        "tolower toupper isascii toascii".split()


def test_ctype_gives_glibcs_values_for_every_argument(tmp_path: Path) -> None:
    # glibc's macros first (wrapped), then cbam's header over them: every defined argument agrees.
    wrapped = "".join(f"static int glibc_{f}(int c) {{ return {f}(c); }}\n" for f in CTYPE)
    undef = "".join(f"#undef {f}\n" for f in CTYPE)
    compare = "".join(f'    if (glibc_{f}(c) != {f}(c)) {{ printf("{f}(%d): %d, not %d\\n", c, {f}(c), glibc_{f}(c)); '
                      f"bad++; }}\n" for f in CTYPE)
    prog = tmp_path / "ctype_check.c"
    prog.write_text(f"#include <ctype.h>\n#include <stdio.h>\n{wrapped}{undef}#include \"{INCLUDE / 'ctype.h'}\"\n"
                    "int __VERIFIER_nondet_int(void) { return 0; }\n"
                    f"int main(void) {{\n  int bad = 0;\n  for (int c = -128; c < 256; c++) {{\n{compare}  }}\n"
                    "  return bad != 0;\n}\n")
    exe = tmp_path / "ctype_check"
    cc = subprocess.run(["gcc", "-Werror", "-o", str(exe), str(prog)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


CLASSIFY = """#include <assert.h>
#include <ctype.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int c = __VERIFIER_nondet_int();
    if (c < -1 || c > 255)
        return 0;
    if (isupper(c))
        assert(islower(tolower(c)) && toupper(tolower(c)) == c);
    assert(CHECK);
    return 0;
}
"""


def test_a_program_that_classifies_characters_is_proved_and_a_wrong_belief_refuted(tmp_path: Path) -> None:
    result = verify_src(CLASSIFY.replace("CHECK", "!isdigit(c) || isdigit(c) == 2048"), tmp_path, timeout=240)
    assert result.verdict == "TRUE", result.reason
    # isdigit's value is glibc's bit, not 1: the belief fails, and the run with glibc shows it.
    bad = CLASSIFY.replace("CHECK", "!isdigit(c) || isdigit(c) == 1")
    path = tmp_path / "bad.c"
    path.write_text(bad)
    result = verify_src(bad, tmp_path, timeout=240, name="bad.c")
    assert result.verdict == "FALSE", result.reason
    assert_replay_reaches_error(path, result, "LP64", tmp_path)
