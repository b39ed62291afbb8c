"""Test harnesses that replay a counterexample, in the manner of CPAchecker's harness export.

The harness is a separate C file. Each ``__VERIFIER_nondet_*`` function (and each other
external function the path calls) returns the counterexample's values in order.
Compiling the program together with the harness and running it reaches the error.
"""

from __future__ import annotations

from ..cfa.cfa import Program
from ..cfa.ctype import IntType, PointerType
from ..core.result import Violation

_C_TYPES = {
    "_Bool": "_Bool", "char": "char", "signed char": "signed char", "unsigned char": "unsigned char",
    "short": "short", "unsigned short": "unsigned short", "int": "int", "unsigned int": "unsigned int",
    "long": "long", "unsigned long": "unsigned long", "long long": "long long",
    "unsigned long long": "unsigned long long",
}


_NONDET = "__VERIFIER_nondet_"
_FLOATING = {"float": "float", "double": "double"}


def _literal(value: int, ctype: str) -> str:
    if ctype in _FLOATING.values():
        return f"{value}.0" + ("f" if ctype == "float" else "")
    if ctype in ("long long",) and value < -(2**31):
        return f"({value + 1}LL - 1)"
    if ctype == "int" and value == -(2**31):
        return "(-2147483647 - 1)"
    if ctype == "long" and value < -(2**31):
        return f"({value + 1}L - 1)"
    suffix = {"unsigned int": "U", "unsigned long": "UL", "unsigned long long": "ULL", "long long": "LL",
              "long": "L"}.get(ctype, "")
    return f"{value}{suffix}"


def write_harness(program: Program, violation: Violation, source_name: str) -> str:
    by_fn: dict[str, list[tuple[int, str]]] = {}
    ret_types: dict[str, str] = {}
    for inp in violation.inputs:
        if inp.source.startswith("input "):
            continue  # the entry's arguments (see _entry_call)
        fn = inp.source[len("extern "):] if inp.source.startswith("extern ") else inp.source
        # A floating nondet function returns its value as a float or double, whatever integer
        # the program converts it to (the value is an integer that the type holds exactly).
        ctype = _FLOATING.get(fn[len(_NONDET):], "") if fn.startswith(_NONDET) else ""
        ctype = ctype or _C_TYPES.get(inp.type, "int")
        ret_types.setdefault(fn, ctype)
        by_fn.setdefault(fn, []).append((inp.value, ctype))
    lines = [
        f"/* cbam test harness for {source_name}: replays the counterexample for",
        f"   {violation.message.split(' (for example', 1)[0]}",
        "   Build: gcc <program>.c <this file> && ./a.out */",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "",
    ]
    for fn in sorted(by_fn):
        ctype = ret_types[fn]
        vals = by_fn[fn]
        safe = fn.replace(" ", "_")
        lits = ", ".join(_literal(v, ctype) for v, _ in vals)
        lines += [
            f"static const {ctype} __cbam_{safe}_values[] = {{{lits}}};",
            f"static unsigned long __cbam_{safe}_next = 0;",
            f"{ctype} {fn}() {{",
            f"  if (__cbam_{safe}_next < {len(vals)}) return __cbam_{safe}_values[__cbam_{safe}_next++];",
            "  return 0;",
            "}",
            "",
        ]
    # Nondet functions the program declares but this path never calls still need a body.
    for name in sorted(program.declared):
        if name.startswith(_NONDET) and name not in by_fn:
            ft = _declared_return(program, name)
            lines += [f"{ft} {name}() {{ return 0; }}", ""]
    defined = set(program.functions)
    if "reach_error" in program.declared and "reach_error" not in defined:
        lines += ['void reach_error() { fprintf(stderr, "cbam harness: reach_error() reached\\n"); abort(); }', ""]
    if "__VERIFIER_error" in program.declared and "__VERIFIER_error" not in defined:
        lines += ['void __VERIFIER_error() { fprintf(stderr, "cbam harness: __VERIFIER_error() reached\\n"); abort(); }',
                  ""]
    if "__VERIFIER_assert" in program.declared and "__VERIFIER_assert" not in defined:
        lines += ['void __VERIFIER_assert(int c) { if (!c) { fprintf(stderr, "cbam harness: __VERIFIER_assert failed\\n");'
                  ' abort(); } }', ""]
    for name in ("__VERIFIER_assume", "assume_abort_if_not"):
        if name in program.declared and name not in defined:
            lines += [f"void {name}(int c) {{ if (!c) exit(0); }}", ""]
    if "__cbam_alloc_fails" in by_fn:
        # The program's allocations fail where the counterexample says (the harness's own
        # malloc, over glibc's: a libc-internal allocation would take a decision too).
        # Under AddressSanitizer (-fsanitize=address) the allocator is the sanitizer's, which
        # tracks what it hands out: this malloc replaces its interceptor, so it calls that.
        lines += [
            "#ifdef __SANITIZE_ADDRESS__",
            "#define __cbam_allocator(f) __interceptor_##f",
            "#else",
            "#define __cbam_allocator(f) __libc_##f",
            "#endif",
            "extern void *__cbam_allocator(malloc)(__SIZE_TYPE__);",
            "extern void *__cbam_allocator(calloc)(__SIZE_TYPE__, __SIZE_TYPE__);",
            "extern void *__cbam_allocator(realloc)(void *, __SIZE_TYPE__);",
            "void *malloc(__SIZE_TYPE__ n) { return __cbam_alloc_fails() ? 0 : __cbam_allocator(malloc)(n); }",
            "void *calloc(__SIZE_TYPE__ n, __SIZE_TYPE__ s) {",
            "  return __cbam_alloc_fails() ? 0 : __cbam_allocator(calloc)(n, s); }",
            "void *realloc(void *p, __SIZE_TYPE__ n) { return __cbam_alloc_fails() ? 0 : __cbam_allocator(realloc)(p, n); }",
            "",
        ]
    if program.entry != "main" and program.entry in program.functions:
        lines += _entry_call(program, violation)
    return "\n".join(lines)


def _entry_call(program: Program, violation: Violation) -> list[str]:
    """A program verified from another function gets a main that calls it with the arguments
    of the counterexample (an argument the path never reads is 0)."""
    fn = program.functions[program.entry]
    given = {inp.source[len("input "):]: inp.value for inp in violation.inputs if inp.source.startswith("input ")}
    sizes = {inp.source[len("input "):]: int(inp.type[len("bytes["):-1]) for inp in violation.inputs
             if inp.source.startswith("input *")}
    args, decls, objects = [], [], []
    for p in fn.params:
        name = p.split("::", 1)[1]
        t = program.vars[p].type
        if isinstance(t, PointerType):
            # The object the parameter points to, byte for byte as in the counterexample.
            decls.append(f"void *{name}")
            key = f"*{name}"
            if given.get(f"{name} == NULL"):
                args.append("(void *)0")
            elif key in sizes:
                data = given[key].to_bytes(sizes[key], "little")
                objects.append(f"static unsigned char __cbam_object_{name}[{sizes[key]}] "
                               f"__attribute__((aligned(16))) = {{{', '.join(str(b) for b in data)}}};")
                args.append(f"(void *)__cbam_object_{name}")
            else:
                args.append("(void *)0")
            continue
        ctype = _C_TYPES.get(t.name, "int") if isinstance(t, IntType) else "int"
        decls.append(f"{ctype} {name}")
        args.append(_literal(given.get(name, 0), ctype))
    ret = fn.return_type
    rtype = _C_TYPES.get(ret.name, "int") if isinstance(ret, IntType) else "void"
    return [*objects, f"{rtype} {program.entry}({', '.join(decls) or 'void'});",
            f"int main(void) {{ {program.entry}({', '.join(args)}); return 0; }}", ""]


def _declared_return(program: Program, name: str) -> str:
    if name.startswith(_NONDET) and name[len(_NONDET):] in _FLOATING:
        return _FLOATING[name[len(_NONDET):]]
    t = program.func_types.get(name)
    if t is not None and isinstance(t.ret, IntType):
        return _C_TYPES.get(t.ret.name, "int")
    return "int"
