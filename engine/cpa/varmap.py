"""reduce / expand / rebuild for domains whose states map variables to facts (value, interval).

* reduce keeps what the block can see (its variables);
* expand restores the caller's context around the block's exit, minus what the block may
  have changed behind its variables' backs (all globals after an external call that may
  write them, every address-taken variable after a write through a pointer);
* rebuild takes locals from the caller's state before the call (the callee may be the
  same function: recursion) and globals and the callee's result from the exit.
"""

from __future__ import annotations

from typing import TypeVar

from ..core.cpa import Block

F = TypeVar("F")


def reduce_map(m: dict[str, F], block: Block) -> dict[str, F]:
    return {k: v for k, v in m.items() if k in block.vars}


def expand_map(entry: dict[str, F], reduced_exit: dict[str, F], block: Block, globals_: frozenset[str],
               addressed: frozenset[str]) -> dict[str, F]:
    out = {k: v for k, v in entry.items() if k not in block.vars
           and not (block.havocs_all_globals and k in globals_) and not (block.writes_memory and k in addressed)}
    out.update(reduced_exit)
    return out


def rebuild_map(call: dict[str, F], exit_: dict[str, F], block: Block, globals_: frozenset[str],
                addressed: frozenset[str]) -> dict[str, F]:
    result_var = block.function.result_var
    out = {k: v for k, v in call.items()
           if k not in globals_ and k != result_var and not (block.writes_memory and k in addressed)}
    for k, v in exit_.items():
        if k in globals_ or k == result_var:
            out[k] = v
    return out
