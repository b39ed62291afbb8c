"""The schedule: which engines a run tries, in what order, under which conditions and for how
long. Data, not code paths: pipeline/portfolio.py walks these tables, docs/engines.md shows them
(``markdown()`` renders them; a test keeps the two in step), and adding an engine is one class
(pipeline/engines.py) and one row here.

A run goes: CEGAR's first phase for a moment (``PROBE_SECONDS``), with Spacer in a child on the
other core beside everything after it (``BESIDE_SHARE`` of the limit, at most
``BESIDE_SECONDS``); then ``BEFORE_CEGAR``, each stage with ``share`` of the run's limit, at
most ``cap`` seconds, and never more than what is left; then CEGAR over BAM (on a small
recursive program under a limit of at least ``SPLIT_MIN_SECONDS``, ``CEGAR_SHARE`` of what is
left, then Spacer again and BMC through the recursion); then, where CEGAR gave up for a reason
another engine may overcome, ``SECOND_TRIES``, each with ``share`` of what is left; last, random
tests, merged-path BMC and path exploration on what is still undecided (portfolio.complete).
Shares are fractions everywhere (of the limit before CEGAR, of what is left after it); caps
and minimums are seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from . import engines
from .engines import Engine, Situation

# ---- times around the tables ---------------------------------------------------------------
PROBE_SECONDS = 0.5  # CEGAR's first phase: what it decides this fast needs no other engine
BESIDE_SHARE = 0.5  # Spacer beside the others, in a child on the other core: it costs them no time
BESIDE_SECONDS = 30.0
MIN_BESIDE = 0.1  # with less, Spacer runs in its turn (a row below), if at all
MIN_SECONDS = 0.5  # left of the run for an engine's turn to be worth starting
CEGAR_SHARE = 0.4  # on a small recursive program: CEGAR's share of what is left, the rest for BMC
SPLIT_MIN_SECONDS = 20.0  # ... under a limit of at least this (with less, BMC could not go deep)
HORN_AGAIN_SECONDS = 5.0  # after CEGAR ran out of its share: Spacer again, at most this (a sixth of what is left)
HORN_AGAIN_SHARE = 1 / 6
BMC_SHARE = 0.75  # ... then BMC through the recursion this share of what is left; the second tries the rest
RETRY_SECONDS = 30.0  # a second try's time when the run has no limit
NO_LIMIT = 24 * 3600.0  # CPArec's limit (its strategy alone) when the run has none
TESTING_LATE_SHARE = 0.25  # random tests after CEGAR, where they did not run before: of what is left
MERGED_LATE_SHARE = 0.5  # merged-path BMC after CEGAR: of what is left, before path exploration

# ---- shares and caps of the rows -----------------------------------------------------------
# Spacer in its turn (one core, no fork): what it proves, it proves fast.
HORN_SHARE, HORN_SECONDS = 0.1, 2.0
KIND_SECONDS = 3.0  # k-induction without Houdini's invariants (HORN_SHARE of the limit)
KIND_RETRY_SECONDS = 8.0  # k-induction with them, after CEGAR: later seconds proved nothing measured
ALGEBRAIC_SHARE, ALGEBRAIC_SECONDS = 0.35, 20.0  # sampling, Houdini and the proof over the integers
GUESSED_SHARE, GUESSED_SECONDS = 0.2, 12.0  # summaries guessed from runs: they prove in seconds or not at all
TEMPLATES_SHARE, TEMPLATES_SECONDS = 0.25, 15.0  # template invariants prove in seconds or fail as fast
MERGED_SHARE, MERGED_SECONDS = 0.4, 24.0  # merged-path BMC, where memory keeps CEGAR and the clauses from relating cells
PATHS_SHARE, PATHS_SECONDS = 0.04, 2.5  # path exploration decides bounded programs in a second or less
TESTING_SHARE, TESTING_SECONDS = 0.03, 2.0  # random tests reach what they reach in the first second or two
# Path exploration after merged-path BMC ran out of time (lists of nondeterministic length,
# whose thousands of paths BMC's formulas cannot hold) ...
PATHS_MEMORY_SHARE, PATHS_MEMORY_SECONDS = 0.33, 20.0
# ... or longer after BMC found a loop past its deepest bound (a long loop, not a branching one).
PATHS_DEEP_SHARE, PATHS_DEEP_SECONDS = 0.7, 45.0
# Under memory safety, where CEGAR's probe does not run: path exploration first for a moment,
# then CEGAR with this share of what is left, the rest for merged-path BMC and path exploration
# again (portfolio.complete). On the realcode harnesses, exploration alone decided in under 2 s
# three memory-safety ones that CEGAR ran out of 60 s on.
UNPROBED_PATHS_SHARE, UNPROBED_PATHS_SECONDS = 0.1, 6.0
UNPROBED_CEGAR_SHARE = 0.6


# ---- the engines the rows name ---------------------------------------------------------------
SPACER = engines.Spacer()
TEMPLATES = engines.Templates()
GUESSED = engines.Guessed()
CPAREC = engines.Cparec()
KINDUCTION = engines.KInduction(offered=False)
KINDUCTION_OFFERED = engines.KInduction(offered=True)
ALGEBRAIC = engines.Algebraic()
EXPLORE = engines.Explore()
EXPLORE_AFTER_BMC = engines.Explore(after_bmc=True, deep_share=PATHS_DEEP_SHARE, deep_cap=PATHS_DEEP_SECONDS)
TESTING = engines.RandomTests()
MERGED_BMC = engines.MergedBmc()


class Of(Enum):
    """What a stage's share is a fraction of."""

    LIMIT = "the run's limit"
    LEFT = "what is left"


@dataclass(frozen=True)
class Stage:
    """One row: ``engine`` runs when ``when(situation)`` holds, for ``share`` of ``of`` and at
    most ``cap`` seconds (None: no cap)."""

    engine: Engine
    when: Callable[[Situation], bool]
    share: float
    cap: float | None
    of: Of


# ---- the conditions the rows name (their docstrings are what docs/engines.md shows) -------
def always(s: Situation) -> bool:
    """always"""
    return True


def merges_first_with_large_arrays(s: Situation) -> bool:
    """merged-path BMC goes first and an array is large (BMC would enumerate it)"""
    return s.merges_first and s.large_arrays


def explores_first(s: Situation) -> bool:
    """merged-path BMC goes first, or path exploration is on and the program has no memory"""
    return s.merges_first or (s.path_exploration and not s.memory)


def no_memory(s: Situation) -> bool:
    """no memory"""
    return not s.memory


def merges_first(s: Situation) -> bool:
    """merged-path BMC goes first (path exploration on, memory, loops it can unroll)"""
    return s.merges_first


def templates_in_order(s: Situation) -> bool:
    """not already run first (see above)"""
    return not (s.merges_first and s.large_arrays)


def explores_memory(s: Situation) -> bool:
    """memory safety, path exploration on"""
    return s.path_exploration and s.memsafety and s.memory


def spacer_in_turn(s: Situation) -> bool:
    """Spacer does not run beside (one core, or no fork)"""
    return not s.alongside


def no_recursion(s: Situation) -> bool:
    """no recursion"""
    return not s.recursive


def recursion_without_memory(s: Situation) -> bool:
    """recursion, no memory"""
    return s.recursive and not s.memory


def after_bmc(s: Situation) -> bool:
    """BMC through the recursion had CEGAR's leftover and found nothing"""
    return s.searched


def recursion_in_turn(s: Situation) -> bool:
    """recursion, no BMC before, Spacer not beside"""
    return s.recursive and not s.searched and not s.alongside


def recursion_beside(s: Situation) -> bool:
    """recursion, no BMC before, Spacer beside"""
    return s.recursive and not s.searched and s.alongside


def spacer_again(s: Situation) -> bool:
    """no BMC before, Spacer not beside"""
    return not s.searched and not s.alongside


def loops_again(s: Situation) -> bool:
    """no recursion, no BMC before"""
    return not s.recursive and not s.searched


# After CEGAR's probe, before its full run, on a small program with a loop or recursion.
BEFORE_CEGAR: tuple[Stage, ...] = (
    Stage(TEMPLATES, merges_first_with_large_arrays, TEMPLATES_SHARE, TEMPLATES_SECONDS, Of.LIMIT),
    Stage(EXPLORE, explores_first, PATHS_SHARE, PATHS_SECONDS, Of.LIMIT),
    Stage(TESTING, no_memory, TESTING_SHARE, TESTING_SECONDS, Of.LIMIT),
    Stage(MERGED_BMC, merges_first, MERGED_SHARE, MERGED_SECONDS, Of.LIMIT),
    Stage(EXPLORE_AFTER_BMC, merges_first, PATHS_MEMORY_SHARE, PATHS_MEMORY_SECONDS, Of.LIMIT),
    Stage(TEMPLATES, templates_in_order, TEMPLATES_SHARE, TEMPLATES_SECONDS, Of.LIMIT),
    Stage(SPACER, spacer_in_turn, HORN_SHARE, HORN_SECONDS, Of.LIMIT),
    Stage(KINDUCTION, no_recursion, HORN_SHARE, KIND_SECONDS, Of.LIMIT),
    Stage(ALGEBRAIC, no_recursion, ALGEBRAIC_SHARE, ALGEBRAIC_SECONDS, Of.LIMIT),
    Stage(GUESSED, recursion_without_memory, GUESSED_SHARE, GUESSED_SECONDS, Of.LIMIT),
)

# Before CEGAR where its probe does not run, under memory safety;
# CEGAR then has ``UNPROBED_CEGAR_SHARE`` of what is left.
UNPROBED: tuple[Stage, ...] = (
    Stage(EXPLORE, explores_memory, UNPROBED_PATHS_SHARE, UNPROBED_PATHS_SECONDS, Of.LIMIT),
)

# After CEGAR gave up early (no progress, say) or Spacer ran out of time: second tries.
SECOND_TRIES: tuple[Stage, ...] = (
    Stage(CPAREC, after_bmc, 1.0, None, Of.LEFT),
    Stage(CPAREC, recursion_in_turn, 1 / 3, None, Of.LEFT),
    Stage(CPAREC, recursion_beside, 1 / 2, None, Of.LEFT),
    Stage(SPACER, spacer_again, 1 / 2, None, Of.LEFT),
    Stage(KINDUCTION_OFFERED, loops_again, 1 / 3, KIND_RETRY_SECONDS, Of.LEFT),
)


def markdown() -> str:
    """The tables as docs/engines.md shows them."""
    out = []
    for title, table in (("Before CEGAR's full run (after its probe)", BEFORE_CEGAR),
                         ("Before CEGAR where its probe does not run (memory safety; CEGAR then has "
                          f"{UNPROBED_CEGAR_SHARE:g} of what is left)", UNPROBED),
                         ("Second tries, after CEGAR gave up early", SECOND_TRIES)):
        out += [f"**{title}**", "", "| # | engine | when | share | at most |", "|---|---|---|---|---|"]
        for i, s in enumerate(table, 1):
            share = f"{s.share:.3g} of {s.of.value}"
            cap = "—" if s.cap is None else f"{s.cap:g} s"
            out.append(f"| {i} | {s.engine.title} | {(s.when.__doc__ or '').strip()} | {share} | {cap} |")
        out.append("")
    return "\n".join(out)


START = "<!-- schedule: generated from engine/pipeline/schedule.py -->"
END = "<!-- end of schedule -->"


def update_docs(path: str) -> None:
    """Write the tables into ``path`` (docs/engines.md) between its two markers."""
    from pathlib import Path

    text = Path(path).read_text()
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1] if END in rest else rest
    Path(path).write_text(f"{head}{START}\n\n{markdown()}\n{END}{tail}")


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--update-docs"]:
        update_docs(sys.argv[2] if len(sys.argv) > 2 else "docs/engines.md")
    else:
        print(markdown())
