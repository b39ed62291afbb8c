"""The schedule is data (engine/pipeline/schedule.py): a new engine is one class and one row, and
docs/engines.md shows the tables as they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.core.result import DecidedBy, UnknownReason
from cbam.engine.pipeline import beside, portfolio, schedule
from cbam.engine.pipeline.engines import NOTHING, Outcome, RunContext, proved
from cbam.engine.pipeline.schedule import Of, Stage, always
from cbam.engine.pipeline.search import Search

from .conftest import ROOT, verify_src

LOOP = """
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int n = __VERIFIER_nondet_int(), i = 0;
    while (i < n) i++;
    if (i < 0) reach_error();
    return 0;
}
"""


class BoundedLoops:
    """A toy engine: it claims every program it is given safe (a real one would prove it). It
    shows what an engine is: a title for the docs and ``run(ctx, seconds) -> Outcome``."""

    title = "toy"

    def __init__(self) -> None:
        self.calls: list[float] = []

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        self.calls.append(seconds)
        return Outcome(proved(ctx.stats, DecidedBy.K_INDUCTION, {"main": "toy"}, ctx.program))


def _cegar_undecided(program, opts, stats, cegar, *rest):
    """CEGAR decides nothing (neither its probe nor its full run), so the stages decide."""
    def undecided(first_phase_only: bool, limit, stop=None):
        return Search(status="unknown", kind=UnknownReason.NO_PROGRESS, reason="no progress", stats=stats,
                      precision={})
    return portfolio._portfolio(program, opts, stats, undecided, *rest)


@pytest.fixture
def in_turn(monkeypatch):
    """No child beside (one core): the schedule's rows alone decide, in order."""
    monkeypatch.setattr(beside, "cores", lambda: 1)
    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", _cegar_undecided)


def test_a_new_engine_is_one_class_and_one_row(tmp_path: Path, monkeypatch, in_turn) -> None:
    toy = BoundedLoops()
    monkeypatch.setattr(schedule, "BEFORE_CEGAR", (Stage(toy, always, 0.1, 1.0, Of.LIMIT), *schedule.BEFORE_CEGAR))
    r = verify_src(LOOP, tmp_path, timeout=20)
    assert r.verdict == "TRUE" and r.statistics.decided_by == DecidedBy.K_INDUCTION
    assert r.invariants == {"main": "toy"}
    assert len(toy.calls) == 1 and 0 < toy.calls[0] <= 1.0  # its share of 20 s, capped at 1 s


def test_a_row_whose_condition_fails_is_not_run(tmp_path: Path, monkeypatch, in_turn) -> None:
    toy = BoundedLoops()
    monkeypatch.setattr(schedule, "BEFORE_CEGAR", (Stage(toy, schedule.recursion_without_memory, 0.1, 1.0, Of.LIMIT),))
    monkeypatch.setattr(schedule, "SECOND_TRIES", ())
    r = verify_src(LOOP, tmp_path, timeout=5, path_exploration=False)
    assert toy.calls == [] and r.verdict == "UNKNOWN"


def test_the_rows_run_in_order_until_one_decides(tmp_path: Path, monkeypatch, in_turn) -> None:
    seen: list[str] = []

    class Recorder:
        def __init__(self, title: str, decides: bool):
            self.title, self.decides = title, decides

        def run(self, ctx: RunContext, seconds: float) -> Outcome:
            seen.append(self.title)
            return BoundedLoops().run(ctx, seconds) if self.decides else NOTHING

    rows = tuple(Stage(Recorder(t, d), always, 0.05, 0.5, Of.LIMIT) for t, d in (("a", False), ("b", True), ("c", True)))
    monkeypatch.setattr(schedule, "BEFORE_CEGAR", rows)
    assert verify_src(LOOP, tmp_path, timeout=20).verdict == "TRUE"
    assert seen == ["a", "b"]


def test_every_share_is_a_fraction_and_every_cap_seconds() -> None:
    for stage in schedule.BEFORE_CEGAR + schedule.SECOND_TRIES:
        assert 0 < stage.share <= 1
        assert stage.cap is None or stage.cap > 0
        assert (stage.cap is not None) or stage.of is Of.LEFT  # before CEGAR every row has its cap
        assert stage.engine.title and (stage.when.__doc__ or "").strip()


def test_the_docs_show_the_schedule_as_it_is() -> None:
    text = (ROOT / "docs" / "engines.md").read_text()
    start = "<!-- schedule: generated from engine/pipeline/schedule.py -->"
    end = "<!-- end of schedule -->"
    assert start in text and end in text
    shown = text.split(start, 1)[1].split(end, 1)[0].strip()
    assert shown == schedule.markdown().strip(), "run: python -m cbam.engine.pipeline.schedule --update-docs"


KAT = """#include <stdio.h>
extern void reach_error(void);
static unsigned mix(unsigned h, unsigned c) { return (h ^ c) * 16777619u; }
int main(void) {
    unsigned h = 2166136261u;
    for (unsigned i = 0; i < 3000; i++) h = mix(h, 97 + i);
    printf("%u\\n", h);
    if (h != EXPECTED) reach_error();
    return 0;
}
"""


@pytest.mark.parametrize("code, reads", [
    (LOOP, True),
    (KAT, False),
    (KAT.replace('printf("%u\\n", h);', 'if (printf("%u\\n", h) < 0) return 1;'), True),  # printf's count
    (KAT.replace("int main(void) {", '#include <stdlib.h>\nint main(void) {\n    if (getenv("X")) return 1;'), True),
])
def test_which_programs_read_input(tmp_path: Path, code: str, reads: bool) -> None:
    from cbam.engine.cfa import traits
    from cbam.engine.cpa.value import FULL_SHARE, FULL_SHARE_WITHOUT_INPUT, ValuePrecisions

    from .conftest import load_src

    program = load_src(code.replace("EXPECTED", "1u"), tmp_path)
    assert traits.reads_input(program) is reads
    first = ValuePrecisions().schedule(program)[0]
    assert first[0].track_all and first[1] == (FULL_SHARE if reads else FULL_SHARE_WITHOUT_INPUT)


def test_a_long_loop_without_input_is_still_proved_by_the_stages_before_cegar(tmp_path: Path) -> None:
    """One execution, but 2.7 billion iterations: not for the value analysis to run through
    (the full-precision phase is CEGAR's; the stages before it still prove the loop)."""
    from .conftest import SVCOMP

    task = SVCOMP / "c" / "loop-acceleration" / "nested_1-1.c"
    r = verify_src(task.read_text(), tmp_path, timeout=60, data_model="ILP32", name=task.name)
    assert r.verdict == "TRUE" and r.statistics.decided_by != DecidedBy.CEGAR


MEMORY_LOOP = """
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a[8], n = __VERIFIER_nondet_int() & 7;
    for (int i = 0; i < n; i++) a[i] = i;
    return a[n];
}
"""


def test_where_cegars_probe_does_not_run_the_unprobed_rows_go_first(tmp_path: Path, monkeypatch) -> None:
    """Memory safety has no probe (the clauses encode no memory checks): path exploration's row
    goes before CEGAR, which then has a share of what is left, not all of it."""
    toy = BoundedLoops()
    monkeypatch.setattr(schedule, "UNPROBED", (Stage(toy, schedule.explores_memory, 0.1, 1.0, Of.LIMIT),))
    r = verify_src(MEMORY_LOOP, tmp_path, timeout=20, property="memsafety")
    assert r.verdict == "TRUE" and r.statistics.decided_by == DecidedBy.K_INDUCTION
    assert len(toy.calls) == 1 and 0 < toy.calls[0] <= 1.0
    toy.calls.clear()
    verify_src(MEMORY_LOOP, tmp_path, timeout=20, property="memsafety", path_exploration=False, name="off.c")
    assert toy.calls == []  # (its condition: path exploration on)


def test_cegar_out_of_its_share_leaves_the_rest_to_the_last_engines() -> None:
    """Running out of the run's limit is final; running out of a share of it (where CEGAR has
    0.6 of what is left) leaves merged-path BMC and path exploration the rest (before, that
    timeout read as final too, and 40% of the run went unused)."""
    from cbam.engine.core.result import Statistics
    from cbam.engine.options import VerifyOptions

    def cut(share_limited: bool) -> Search:
        return Search(status="unknown", kind=UnknownReason.TIMEOUT, stopped=UnknownReason.TIMEOUT, reason="timeout",
                      stats=Statistics(), precision={}, run_timed_out=True, share_limited=share_limited)

    assert portfolio.undecided(cut(True), VerifyOptions(), 0)
    assert not portfolio.undecided(cut(False), VerifyOptions(), 0)
