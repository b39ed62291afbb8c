"""Which engines decide a program, and in what order: the one place that says so.

0. On small programs (at most ``horn.MAX_EDGES`` CFA edges) with a loop or recursion: CEGAR's
   first phase for a moment (``PROBE_SECONDS``), which settles what explicit values settle
   at once (most bounded recursion, and any edit whose summaries the cache still holds);
   beside it and beside every engine after it, in a forked child on another core
   (pipeline/beside.py), **whole-program invariants from Horn clauses** (algorithms/horn/clauses.py), for
   half of the time (``BESIDE_SHARE``, at most ``BESIDE_SECONDS``): whichever engine settles the
   program first answers, and Spacer's proof stops the one that runs. The second tries below
   run beside it too; before an UNKNOWN the run waits for Spacer's answer. On one core, or without
   ``os.fork``, Spacer runs after the probe instead, in its turn, for a small share of the time
   (``HORN_SHARE``, at most ``HORN_SECONDS``), and again in the second tries. Spacer finds loop invariants and
   recursive summaries over the integers in a fraction of a second where value analysis
   would enumerate an input range and predicate refinement would unroll; its candidate is a
   proof only once every clause holds with machine integers. It proves; it never reports a
   violation, so anything it does not prove goes on to the engines below as if it had not
   run. A probe that does not finish leaves nothing but the block results it completed.
   First, **path exploration** for a moment (``PATHS_SHARE``, at most ``PATHS_SECONDS``): it
   decides bounded programs exactly, inputs bounded ahead of a loop split into one concrete
   path per value (bench/loops' nla tasks with inputs up to 10); on a program with memory it
   pauses there and goes on where it stopped after merged-path BMC if that ran out of time
   (``PATHS_MEMORY_SHARE``, at most ``PATHS_MEMORY_SECONDS``), or longer if a loop ran past
   its deepest bound (``PATHS_DEEP_SHARE``, at most ``PATHS_DEEP_SECONDS``). Then, on a program without
   memory where one violation is asked for, **random tests** (algorithms/testing.py,
   ``TESTING_SHARE``, at most ``TESTING_SECONDS``): runs on random inputs, a run that reaches an
   error confirmed by replaying its path with the values it drew. They find violations deeper
   than the symbolic engines reach in time (a pure recursion's call tree, a loop of nonlinear
   products).
   Before Spacer, on a program with arrays whose cells the clauses track, **template
   invariants** (algorithms/horn/templates.py, ``TEMPLATES_SHARE``, at most ``TEMPLATES_SECONDS``):
   facts over what a loop nest writes into an array, kept Houdini-style, for the same check;
   on a program that merged-path BMC tries first (below), they come after it unless an array
   is large (``scope.large_arrays``), which BMC would enumerate element by element.
   On a program without recursion, **k-induction** (algorithms/kinduction.py) follows, with
   the same share (at most ``KIND_SECONDS``): bit-vector BMC and induction over the same
   clauses, anchored at loop heads (Houdini invariants only in the retry below). It proves loops
   whose body re-establishes the property whatever state it starts in (the lock patterns),
   where Spacer's integer invariants do not carry over to machine integers. A violation its
   base case (BMC with merged paths) reaches is replayed as a CFA path and confirmed exactly;
   with one violation asked for, that decides the run. Then **polynomial loop invariants**
   (``kinduction.solve_algebraic``, at most ``ALGEBRAIC_SECONDS``, ``ALGEBRAIC_SHARE`` of the
   limit): equalities such as ``y*y - 2*x + y == 0`` guessed from sampled loop-head states
   (as DIG does), proved with the bounds they need over integer clauses with exact products,
   where the bit-vector engines cannot prove them and CEGAR would unroll. A program where no
   equality is guessed costs the sampling alone (a few seconds at most). On a recursive
   program without memory, **summaries guessed from runs** instead (CPArec's first candidates,
   algorithms/horn/samples.py, ``GUESSED_SHARE``, at most ``GUESSED_SECONDS``): the equalities
   every sampled call satisfies (``\result == n*m``; ``\result == m + n`` where it fits the
   result's type), kept where Houdini proves them over the clauses with exact products.
   If Spacer ran out of time and CEGAR (below) then gives up early: on a recursive program,
   CPArec (algorithms/cparec.py) gets a third of the time left, then Spacer half of what remains;
   on any other, Spacer half, then k-induction with Houdini's invariants a third of the rest
   (at most ``KIND_RETRY_SECONDS``), its candidates including what the analyses offer
   (``registry.invariants``: the interval analysis's facts, the predicate analysis's loop
   equalities and the predicates CEGAR's refinement found; ``induction_offered`` counts those a
   proof kept);
   merged-path BMC and path exploration what remains (see ``complete``).
1. **CEGAR over BAM** with the configuration's analyses (search.py), phase after phase. It
   proves programs whose invariants its abstract domains express, with summaries that the
   cache keeps across edits. On a small recursive program under a time limit (of at least
   ``SPLIT_MIN_SECONDS``) it gets a share of the time left (``CEGAR_SHARE``). If that runs out, Spacer gets a second try of a few
   seconds, then **BMC through the recursion** (algorithms/bmc/recursion.py) most of the rest
   (``BMC_SHARE``): the calls instantiated down to a doubling depth,
   with machine integers, for violations deeper than CEGAR's value analysis enumerates in
   time (Fibonacci05 needs 8 levels of a tree of calls, id_o1000 a chain of 1000). It only
   finds violations, confirmed exactly with inputs and a harness; with more than one asked
   for, its violation joins the run's as one found before the time ran out. Without one,
   CPArec gets what is left.
2. **Path exploration** (algorithms/paths.py), with the time CEGAR left, when CEGAR ended
   without deciding every error location and not for lack of time: refinement made no
   progress (relations over memory contents, which the abstract domains do not express), a
   construct an abstract domain does not support, or an error path it could not confirm. It
   follows every path exactly, so it decides bounded programs (no loop or recursion that runs
   for an input-dependent number of iterations), with memory, and finds deep violations.

Which engine decided is reported in the result's statistics (``decided_by``: "templates", "invariants",
"k-induction" (with ``induction_k``), "bmc" (k-induction's base case, or BMC through the
recursion with ``unwinding_depth``, found the violation), "testing", "cparec", "cegar", "paths" or
"cegar+paths", "cegar+testing").

A configuration whose strategy is "cparec" (cpa/registry.py) runs **CPArec** alone
(algorithms/cparec.py, seed 002) instead: bounded unwinding of the recursion, summaries from the
unwound program's invariants, checked for inductiveness and then with machine integers. A
counterexample it finds within ``k`` recursive calls is confirmed by path exploration, which is
exact (with inputs and a harness); ``decided_by`` is "cparec" either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from ..algorithms import scope
from ..cex.feasibility import Confirmed
from ..cfa import traits
from ..cfa.cfa import Program
from ..cfa.ir import CFANode
from ..core.cpa_algorithm import Budget
from ..core.result import Statistics, UnknownReason
from ..cpa import registry
from ..options import VerifyOptions
from . import beside
from .beside import Beside, either
from .search import Search

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..algorithms.horn import clauses

# What leaves no time or no point for another engine.
_FINAL = (UnknownReason.TIMEOUT, UnknownReason.CANCELLED, UnknownReason.MEMORY, UnknownReason.BAD_OPTION,
          UnknownReason.INTERNAL)
MIN_SECONDS = 0.5  # left of the run's time for path exploration to be worth starting
HORN_SHARE = 0.1  # of the run's time limit, for the Horn-clause engine first
HORN_SECONDS = 2.0  # ... and at most this: what it proves, it proves fast
# Beside the other engines, in a child on the other core (pipeline/beside.py), Spacer gets this
# share of the run's limit, at most BESIDE_SECONDS: it costs them no time, and some proofs take
# it (Ackermann03: 16 s, recHanoi03-2: 9 s, where the first try in turn had 2 s).
BESIDE_SHARE = 0.5
BESIDE_SECONDS = 30.0
MIN_BESIDE = 0.1  # with less, Spacer runs in its turn (if the run has time for it at all)
KIND_SECONDS = 3.0  # k-induction after it on a program without recursion, at most this (same share)
# k-induction's second try (with Houdini's invariants) at most this: in no benchmark run did it
# prove anything after its first few seconds, and merged-path BMC after it needs 9-16 s of two
# busy cores for bitvector/modulus-2's bounded loops.
KIND_RETRY_SECONDS = 8.0
# CEGAR's first phase before it: what it decides this fast needs no other engine. At 0.2 s the
# editor's median time to the first diagnostic on the shared tasks rose from 0.47 to 0.76 s
# (bench/editor_bench.py): most tasks CEGAR decides in 0.2 to 0.5 s went through Spacer first.
ALGEBRAIC_SHARE = 0.35  # then polynomial loop invariants (kinduction.solve_algebraic), this share
ALGEBRAIC_SECONDS = 20.0  # ... and at most this: sampling, Houdini and the proof over the integers
# On a recursive program without memory, the summaries guessed from runs (CPArec's first
# candidates, algorithms/horn/samples.py) instead: this share, at most this long. Alone, they
# prove what they prove in 1-2 s (Addition03-1, MultCommutative-2, Fibonacci01-1), recHanoi01 in
# about 6 s, and give up within 7 s on the others of the shared set's recursive tasks.
GUESSED_SHARE = 0.2
GUESSED_SECONDS = 12.0
PROBE_SECONDS = 0.5
# Template invariants first after the probe, on a program with arrays whose cells the Horn
# clauses track: facts over what a loop nest writes (every element set so far holds C, is at
# most max, equals the other array's), with bounds and order, kept Houdini-style. What they
# prove they prove in seconds (bench/memory's two-dimensional arrays: 1-6 s with the check,
# a three-dimensional mirror image 22 s), and they fail about as fast where no template fits.
TEMPLATES_SHARE = 0.25
TEMPLATES_SECONDS = 15.0
# On a small recursive program, CEGAR's share of the time left; the other engines get the rest.
# On the recursive tasks CEGAR decided everything it decides within 17 s of 60 (the 48a5f9d run
# in bench/reports/recursive-60s.md's history); BMC takes 12-17 s on id_o1000's last depth.
CEGAR_SHARE = 0.4
# ... under a time limit of at least this: with less, BMC would get too little to go deep, and
# CEGAR's share too little for what it decides in a few seconds (a 10 s run doubled its time
# in tests/test_cache_soundness.py, runs going to their limit).
SPLIT_MIN_SECONDS = 20.0
HORN_AGAIN_SECONDS = 5.0  # then Spacer again, at most this (a sixth of what is left)
BMC_SHARE = 0.75  # ... then BMC this share of what is left; CPArec the rest (a proof may be near)
RETRY_SECONDS = 30.0  # the second try's limit when the run has none
# Merged-path BMC first (after the probe) on a small program with loops that uses memory: this
# share of the run's limit, at most MERGED_SECONDS. On tests/programs/memory it decides what it
# decides in under 10 s (array_minmax, linked_list, digit_histogram_false), where CEGAR cannot
# relate memory contents to inputs (it gives up, or enumerates them for the whole run) and the
# Horn-clause engines leave memory arbitrary.
MERGED_SHARE = 0.4
# Path exploration first (after the probe), this share of the run's limit, at most
# PATHS_SECONDS: it decides bounded programs in a second or less (see _explore_first), and
# gives up on the others at once or when the time is up (with memory: it pauses, and goes on
# after merged-path BMC; a list program's paths before BMC spent 24 s on it: list-ext3's
# sll_length_check-2, 0.6 s where it took 25).
PATHS_SHARE = 0.04
PATHS_SECONDS = 2.5
# Random tests after it, on a program without memory where one violation is asked for, this share of
# the limit, at most TESTING_SECONDS: what they reach they reach in the first second or two, and
# a program they do not break costs the editor no more than that before its proof.
TESTING_SHARE = 0.03
TESTING_SECONDS = 2.0
# After merged-path BMC ran out of time on a program with memory: lists built with
# nondeterministic lengths and walked by several calls, whose thousands of paths BMC's
# formulas cannot hold (list-ext3's sll_nondet_insert-2: 2,090 paths in 7 s alone,
# sll_of_sll_nondet_append-1: 1,331 longer ones in 17 s).
PATHS_MEMORY_SHARE = 0.33
PATHS_MEMORY_SECONDS = 20.0
# ... or after merged-path BMC found a loop longer than its deepest bound (1,024 iterations):
# path exploration follows a loop with a concrete bound 30,000 times in about 10 s where no
# other engine relates the cells (array-crafted's xor3, bAnd3, mapsum3: a fold over 10,000
# cells before and after a rotation).
PATHS_DEEP_SHARE = 0.7
PATHS_DEEP_SECONDS = 45.0
MERGED_SECONDS = 24.0
MERGED_LATE_SHARE = 0.5  # of what CEGAR left, before path exploration gets the rest
NO_LIMIT = 24 * 3600.0  # CPArec's limit when the run has none


def search(program: Program, opts: VerifyOptions, stats: Statistics, cegar: Callable[[bool, float | None], Search],
           t0: float, known: dict[int, CFANode], on_confirmed: Callable[[list[Confirmed]], None] | None) -> Search:
    """The run's search, by its configuration's strategy. ``cegar(first_phase_only, time_limit)``: CEGAR over
    BAM with the run's phases (None: the run's own limit)."""
    strategy = STRATEGIES[registry.configuration(opts.config).strategy]
    return strategy(program, opts, stats, cegar, t0, known, on_confirmed)


def _portfolio(program: Program, opts: VerifyOptions, stats: Statistics, cegar: Callable[..., Search],
               t0: float, known: dict[int, CFANode],
               on_confirmed: Callable[[list[Confirmed]], None] | None) -> Search:
    probe = not known and _horn_applies(program, opts)
    child = None
    if probe:
        # Spacer in a child on the other core, beside every engine below (pipeline/beside.py).
        seconds = _share(opts, t0, BESIDE_SECONDS, BESIDE_SHARE)
        if opts.timeout is not None:  # its answer, with the time it may take to send it, within the run's
            seconds = min(seconds, t0 + opts.timeout - time.monotonic() - beside.GRACE_SECONDS)
        child = Beside.start(partial(_horn_outcome, program, seconds), seconds) if seconds > MIN_BESIDE else None
    spacer = _Spacer(child, program, opts, stats)
    tested: list[Confirmed] = []  # what the random tests found with more than one violation asked for
    try:
        return _joined(_engines(program, opts, stats, cegar, t0, known, on_confirmed, probe, spacer, tested),
                       tested, opts.max_violations - len(known))
    finally:
        spacer.stop()


def _joined(search: Search, tested: list[Confirmed], most: int) -> Search:
    """``search`` with the random tests' violations at the error locations it did not confirm
    itself (at most ``most`` in all): with more than one violation asked for they run early but
    decide nothing, and what they found is the run's whatever the engines after them did. They
    go after the search's own: the certificates of the multi-violation mode's chain
    (cache/certificate.py's ``record_chain``) belong to the search's first violations, in order."""
    have = {id(c.path.error_node) for c in search.confirmed}
    new = [c for c in tested if id(c.path.error_node) not in have][:max(0, most - len(search.confirmed))]
    if not new:
        return search
    search.confirmed.extend(new)
    if search.status != "unsafe":  # (their paths are exact: no proof stands against them)
        search.status = "unsafe"
        search.stats.decided_by = "testing"
    return search


class _Spacer:
    """Spacer's child, and what the engines beside it ask of it. With no child (one core, no
    fork) it answers nothing, and Spacer runs in its turn."""

    def __init__(self, child: Beside[clauses.HornOutcome] | None, program: Program, opts: VerifyOptions,
                 stats: Statistics):
        self.child = child
        self.program = program
        self.opts = opts
        self.stats = stats

    @property
    def running(self) -> bool:
        return self.child is not None

    def proved(self) -> bool:
        """Whether the child has a proof (never waits): the other engines' cue to stop."""
        got = self._outcome(False)
        return got is not None and got.status == "safe"

    def proof(self, wait: bool = False) -> Search | None:
        """The child's proof as a finished search; ``wait``: for its answer, until its time is up
        or the run is cancelled."""
        got = self._outcome(wait)
        return _proved(self.stats, "invariants", got.summaries, self.program) if got is not None and got.status == "safe" else None

    def may_prove(self) -> bool:
        """Whether the child still runs, or ran out of time (never waits)."""
        if self.child is None:
            return False
        got = self._outcome(False)
        return not self.child.ready() or (got is not None and got.timed_out)

    def stop_with(self, opts: VerifyOptions) -> VerifyOptions:
        """``opts`` whose cancellation also stops at the child's proof."""
        return opts if self.child is None else opts._replace(cancel=either(opts.cancel, self.proved))

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()

    def _outcome(self, wait: bool) -> clauses.HornOutcome | None:
        if self.child is None or not (wait or self.child.ready()):
            return None
        return self.child.answer(_cancel(self.opts))


def _engines(program: Program, opts: VerifyOptions, stats: Statistics, cegar: Callable[..., Search],
             t0: float, known: dict[int, CFANode], on_confirmed: Callable[[list[Confirmed]], None] | None,
             probe_first: bool, spacer: _Spacer, tested_found: list[Confirmed]) -> Search:
    """``probe_first``: a small program with a loop or recursion, where CEGAR's probe and the
    provers go before CEGAR's full run."""
    retry = False
    guessed = False  # the summaries guessed from runs were tried (CPArec need not again)
    merged: dict[str, int] = {}  # how far merged-path BMC got before (see _bmc_merged)
    paused: dict[str, Any] = {}  # a path exploration paused between two turns (see _explore_first)
    tested = False  # the random tests ran (``complete`` need not run them again)
    alongside = spacer.running  # Spacer runs beside the engines below, not in its turn
    stop = spacer.proved if alongside else None
    opts = spacer.stop_with(opts)
    if probe_first:
        probe = cegar(True, min(PROBE_SECONDS, opts.timeout) if opts.timeout is not None else PROBE_SECONDS, stop)
        if probe.status in ("safe", "unsafe") and probe.stopped == UnknownReason.NONE and not probe.reason:
            probe.stats.decided_by = "cegar"
            return probe
        if not probe.confirmed:  # a confirmed violation leaves nothing to prove
            steps: list[tuple[Prover, float, float]] = []
            templates = (_prove_templates, TEMPLATES_SECONDS, TEMPLATES_SHARE)
            if _merges_first(program, opts):
                # Merged BMC unrolls small arrays faster than the templates fail; large ones it
                # enumerates element by element, where the templates generalize.
                first = scope.large_arrays(program)
                steps += [templates] if first else []
                # Path exploration for a moment first, and after merged BMC it goes on from
                # where it stopped (``paused``; and after CEGAR, in ``complete``).
                steps.append((partial(_explore_first, on_confirmed=on_confirmed, paused=paused), PATHS_SECONDS,
                              PATHS_SHARE))
                steps.append((partial(_bmc_merged, merged=merged, on_confirmed=on_confirmed), MERGED_SECONDS,
                              MERGED_SHARE))
                steps.append((partial(_explore_first, on_confirmed=on_confirmed, unless=merged, t0=t0, paused=paused),
                              PATHS_MEMORY_SECONDS, PATHS_MEMORY_SHARE))
                steps += [] if first else [templates]
            else:
                steps.append(templates)
                if opts.path_exploration and not traits.uses_memory(program):
                    steps.insert(0, (partial(_explore_first, on_confirmed=on_confirmed), PATHS_SECONDS, PATHS_SHARE))
            if not traits.uses_memory(program):
                steps.insert(0 if steps[0] is templates else 1,
                             (partial(_test_first, on_confirmed=on_confirmed, keep=tested_found), TESTING_SECONDS,
                              TESTING_SHARE))
            steps += [] if alongside else [(_prove, HORN_SECONDS, HORN_SHARE)]
            if not traits.recursive(program):
                steps += [(partial(_prove_kinduction, strengthen=False, on_confirmed=on_confirmed),
                           KIND_SECONDS, HORN_SHARE),
                          (_prove_algebraic, ALGEBRAIC_SECONDS, ALGEBRAIC_SHARE)]
            elif not traits.uses_memory(program):
                steps.append((_prove_guessed, GUESSED_SECONDS, GUESSED_SHARE))
                guessed = True
            for prove, most, share in steps:
                if (proof := spacer.proof()) is not None:
                    return proof
                seconds = _share(opts, t0, most, share)
                if seconds <= 0:  # the run's time is up: more of it might have given a proof
                    retry = True
                    break
                tested = tested or getattr(prove, "func", None) is _test_first
                proved, again = prove(program, opts, stats, seconds)
                if proved is not None:
                    return proved
                retry = retry or again
    deep = (opts.timeout is not None and opts.timeout >= SPLIT_MIN_SECONDS and not known
            and _horn_applies(program, opts) and not scope.unwinds_recursion(program))
    out = cegar(False, CEGAR_SHARE * max(0.0, t0 + opts.timeout - time.monotonic()) if deep else None, stop)
    if (proof := spacer.proof()) is not None:
        return proof
    searched = False  # BMC had CEGAR's leftover and found nothing: the provers below get what it left
    if deep and out.status == "unknown" and out.stopped == UnknownReason.TIMEOUT and not out.confirmed:
        # CEGAR ran out of its share: whatever decides now, a faster machine might have let
        # CEGAR decide it, with another path (the self-check compares no such answers).
        out.stats.phases_cut_by_time += 1
        # Spacer again for a moment first, unless it ran beside CEGAR: its first try's share
        # (2 s) is short of what some linear recursions need (recHanoi02-2: 2.6 s), and after
        # BMC it ran slower.
        remaining = t0 + opts.timeout - time.monotonic()
        proved = _prove(program, opts, stats, min(HORN_AGAIN_SECONDS, remaining / 6))[0] \
            if remaining > MIN_SECONDS and not alongside else None
        if proved is not None:
            return proved
        found = _find_bmc(program, opts, out, t0, on_confirmed)
        if found is not None:
            return found
        searched = True
    if alongside and not out.confirmed and (searched or undecided(out, opts, 0)):
        # What CEGAR (and BMC) left undecided, Spacer may still prove; the others' second tries
        # run beside it rather than after it (waiting cost Addition01-2, which CPArec proves,
        # 15 s in the editor).
        if (proof := spacer.proof()) is not None:
            return proof
        retry = retry or spacer.may_prove()
    if (searched or retry and undecided(out, opts, 0)) and not out.confirmed:
        # CEGAR gave up early (no progress, say): two more tries, each with a share of what is
        # left, before path exploration. On a recursion CPArec first (a third): summaries from
        # bounded unwinding, where Spacer's direct ones ran out of time (Addition01: 9 s alone,
        # where Spacer gives up after 26), then Spacer (half of the rest). Otherwise Spacer
        # first (half: loop-industry-pattern/mod3 needs 13 s of it), then k-induction with
        # Houdini's invariants (a third of the rest, at most KIND_RETRY_SECONDS). After BMC through the recursion, CPArec
        # (Spacer had its second try before BMC). Spacer's try is left out where it ran beside.
        tried: list[bool] = []  # per engine tried again: whether it ran out of time
        cparec_again = partial(_prove_cparec, guess=not guessed)
        # k-induction's step case is offered what the analyses know (CEGAR's precision included).
        kind_again = partial(_prove_kinduction, facts=partial(registry.invariants, registry.configuration(opts.config),
                                                              program, out.precision or {}))
        order: list[tuple[Prover, int]] = ([(cparec_again, 1)] if searched
                                           else [(cparec_again, 3), (_prove, 2)] if traits.recursive(program)
                                           else [(_prove, 2), (kind_again, 3)])
        if alongside:  # (CPArec gets half of what is left, k-induction a third, as below)
            order = [(p, n if p is kind_again else min(n, 2)) for p, n in order if p is not _prove]
        for prove, share in order:
            remaining = None if opts.timeout is None else t0 + opts.timeout - time.monotonic()
            if remaining is not None and remaining < share * MIN_SECONDS:
                continue
            seconds = RETRY_SECONDS if remaining is None else remaining / share
            if prove is kind_again:
                seconds = min(seconds, KIND_RETRY_SECONDS)
            proved, timed_out = prove(program, opts, stats, seconds)
            if proved is not None:
                return proved
            tried.append(timed_out)
        if tried:  # whether more time might have given a proof
            retry = any(tried)
    complete(program, opts, out, t0, known, on_confirmed, merged, tested=tested, paused=paused)
    if alongside and out.status == "unknown" and not out.confirmed:
        if (proof := spacer.proof(wait=True)) is not None:
            return proof
        retry = retry or spacer.may_prove()  # (it has answered: whether it ran out of time)
    if retry and out.status == "unknown":
        # Spacer ran out of its time: on a faster machine it might have proved this. Such an
        # UNKNOWN is not a final answer (the cache does not keep it; the self-check skips it).
        out.stats.phases_cut_by_time += 1
    return out


# An engine's second try: (program, options, statistics, seconds) -> (its proof or None, timed out).
Prover = Callable[[Program, VerifyOptions, Statistics, float], tuple[Search | None, bool]]


def _share(opts: VerifyOptions, t0: float, most: float, share: float) -> float:
    """An engine's time before CEGAR: ``share`` of the run's limit, at most ``most`` seconds, and
    never more than what is left of the run (an engine before it may have used more than its
    own share: the limit is the run's, not each engine's)."""
    if opts.timeout is None:
        return most
    left = t0 + opts.timeout - time.monotonic()
    return max(0.0, min(most, share * opts.timeout, left))


def _horn_applies(program: Program, opts: VerifyOptions) -> bool:
    return opts.horn and opts.property == "unreach-call" and not scope.applies(program)


def _prove(program: Program, opts: VerifyOptions, stats: Statistics, seconds: float) -> tuple[Search | None, bool]:
    """The Horn-clause engine's proof as a finished search (None: nothing happened, the other
    engines run as they would without it), and whether more time might give one."""
    from ..algorithms.horn import clauses

    out = clauses.solve(program, seconds, _cancel(opts))
    return (_proved(stats, "invariants", out.summaries, program), False) if out.status == "safe" else (None, out.timed_out)


def _horn_outcome(program: Program, seconds: float) -> clauses.HornOutcome:
    """Spacer's outcome, in a child beside the probe (which cancels it when it is not wanted)."""
    from ..algorithms.horn import clauses

    return clauses.solve(program, seconds)


def _prove_templates(program: Program, opts: VerifyOptions, stats: Statistics,
                     seconds: float) -> tuple[Search | None, bool]:
    """The template invariants' proof as a finished search (None: none), and whether more time
    might give one."""
    from ..algorithms.horn import templates

    out = templates.prove(program, seconds, _cancel(opts))
    return (_proved(stats, "templates", out.summaries, program), False) if out.status == "safe" else (None, out.timed_out)


def _prove_cparec(program: Program, opts: VerifyOptions, stats: Statistics,
                  seconds: float, guess: bool = True) -> tuple[Search | None, bool]:
    """CPArec's proof as a finished search (None: none; its counterexamples are left to path
    exploration, which runs next anyway), and whether more time might give one."""
    from ..algorithms import cparec

    out = cparec.solve(program, seconds, _cancel(opts), guess=guess)
    if out.status != "safe":
        return None, out.timed_out
    stats.unwinding_depth = out.depth
    return _proved(stats, "cparec", out.summaries, program), False


def _prove_guessed(program: Program, opts: VerifyOptions, stats: Statistics,
                   seconds: float) -> tuple[Search | None, bool]:
    """The proof by summaries guessed from runs (CPArec's first candidates, horn_samples.py) as
    a finished search (None: none), and whether more time might give one."""
    from ..algorithms.horn import samples

    out = samples.solve(program, seconds, _cancel(opts))
    return (_proved(stats, "cparec", out.summaries, program), False) if out.status == "safe" else (None, out.timed_out)


def _prove_kinduction(program: Program, opts: VerifyOptions, stats: Statistics, seconds: float,
                      strengthen: bool = True,
                      on_confirmed: Callable[[list[Confirmed]], None] | None = None,
                      facts: Callable[[float], dict] | None = None) -> tuple[Search | None, bool]:
    """k-induction's answer as a finished search (None: none), and whether more time might give
    one. Its first, short try goes without Houdini's invariants, which cost more than it has;
    ``facts(deadline)``: the other analyses' candidate invariants (registry.invariants).
    A violation its base case finds (BMC) is confirmed like any other and decides the run
    when one violation is asked for; the search for all of them is CEGAR's, which goes on
    from where it stops (None here)."""
    from ..algorithms import kinduction

    out = kinduction.solve(program, seconds, _cancel(opts), strengthen=strengthen, facts=facts)
    if out.status == "unsafe" and out.confirmed is not None and opts.max_violations == 1:
        stats.decided_by = "bmc"
        stats.induction_k = out.k
        if on_confirmed is not None:
            on_confirmed([out.confirmed])
        return Search(status="unsafe", stats=stats, precision={}, confirmed=[out.confirmed]), False
    if out.status != "safe":
        return None, out.timed_out
    stats.induction_k = out.k
    stats.induction_offered = out.offered_kept
    return _proved(stats, "k-induction", out.summaries, program), False


def _prove_algebraic(program: Program, opts: VerifyOptions, stats: Statistics,
                     seconds: float) -> tuple[Search | None, bool]:
    """The polynomial-invariant proof as a finished search (None: none), and whether more time
    might give one."""
    from ..algorithms import kinduction

    out = kinduction.solve_algebraic(program, seconds, _cancel(opts))
    if out.status != "safe":
        return None, out.timed_out
    stats.induction_k = out.k
    return _proved(stats, "k-induction", out.summaries, program), False


def _explore_first(program: Program, opts: VerifyOptions, stats: Statistics, seconds: float,
                   on_confirmed: Callable[[list[Confirmed]], None] | None = None,
                   unless: dict[str, int] | None = None, t0: float | None = None,
                   paused: dict[str, Any] | None = None) -> tuple[Search | None, bool]:
    """Path exploration for a moment, on a program without memory: what it follows to the end
    in that time is decided exactly (it covered every execution), and a violation decides the
    run when one is asked for. Where inputs are bounded ahead of a loop it splits each path
    into one per value (algorithms/paths.py's ``_concrete``), whose branches need no solver:
    bench/loops' bresenham, egcd, egcd2, prodbin and prod4br (inputs up to 10) in 0.1-0.8 s,
    where Spacer and Houdini look for polynomial invariants that do not hold with machine
    integers and CEGAR cannot relate the inputs. None: nothing decided (and no second try is
    owed: path exploration runs again after CEGAR, with what is left). ``unless``: merged-path
    BMC's record (``_bmc_merged``) on a program with memory, where this runs after it only if
    it ran out of time: it unrolls every loop to a bound doubled round after round, and a list
    of 32 nodes is one round too many (list-ext3's sll_length_check-2: 33 iterations, bound 32
    at 24 s, 64 beyond the run), where path exploration follows the 31 lists in 9 s. Where
    merged-path BMC stopped at its deepest bound instead, this gets more time (its share from
    ``t0``, the run's start): such a loop is long rather than branching. ``paused``: shared
    by two turns on one program, the first of which it may hold an exploration its budget
    stopped between two steps, which the second goes on with (or what ended it otherwise,
    then the second does not run: it would end the same way)."""
    if paused is not None and paused.get("ended"):
        return None, False
    if unless is not None:
        if unless.get("deeper") and t0 is not None:
            seconds = _share(opts, t0, PATHS_DEEP_SECONDS, PATHS_DEEP_SHARE)
        elif not unless.get("again"):
            return None, False
    from ..algorithms.paths import Explorer

    budget = Budget(seconds, cancel=opts.cancel)
    explorer = paused.pop("explorer", None) if paused is not None else None
    if explorer is not None:
        out = explorer.resume(budget)
    else:
        explorer = Explorer(program, budget, opts.max_violations)  # type: ignore[arg-type]
        out = explorer.run()
    if paused is not None:
        if explorer.resumable:
            paused["explorer"] = explorer
        elif out.kind not in (UnknownReason.TIMEOUT, UnknownReason.CANCELLED):
            paused["ended"] = True
    exhaustive = out.kind == UnknownReason.NONE
    if out.confirmed and (exhaustive or opts.max_violations == 1):
        stats.decided_by, stats.explored_paths = "paths", out.paths
        if on_confirmed is not None:
            on_confirmed(list(out.confirmed))
        return Search(status="unsafe", stats=stats, precision={}, confirmed=list(out.confirmed)), False
    if exhaustive:
        stats.explored_paths = out.paths
        return _proved(stats, "paths", {}, None), False
    return None, False


def _test_first(program: Program, opts: VerifyOptions, stats: Statistics, seconds: float,
                on_confirmed: Callable[[list[Confirmed]], None] | None = None,
                keep: list[Confirmed] | None = None) -> tuple[Search | None, bool]:
    """Random tests for a moment (algorithms/testing.py), on a program without memory: a run that
    reaches an error is a violation, confirmed by replaying its path with the values it drew.
    With one violation asked for, it decides the run; with more, what they find goes to ``keep``
    (the run's answer gets it, ``_joined``) and the engines after them go on. Deep ones are
    where it pays: a pure recursion that BMC would unwind for a minute (``ackermann(2, 3)``:
    1 s), a loop whose nonlinear arithmetic is costly for the solver (bench/loops'
    prod4br_unwindbound5, at once)."""
    from ..algorithms import testing

    found = testing.find(program, Budget(seconds, cancel=opts.cancel), opts.max_violations)  # type: ignore[arg-type]
    if not found:
        return None, False
    if on_confirmed is not None:
        on_confirmed(list(found))
    if opts.max_violations > 1:
        if keep is not None:
            keep.extend(found)
        return None, False
    stats.decided_by = "testing"
    return Search(status="unsafe", stats=stats, precision={}, confirmed=found), False


def _merges_first(program: Program, opts: VerifyOptions) -> bool:
    """Whether merged-path BMC runs before the Horn-clause engines and CEGAR: on a program with
    loops that uses memory (which those engines leave arbitrary or cannot relate to inputs)."""
    return opts.path_exploration and not scope.merges_paths(program) and traits.uses_memory(program)


def _bmc_merged(program: Program, opts: VerifyOptions, stats: Statistics, seconds: float,
                merged: dict[str, int], on_confirmed: Callable[[list[Confirmed]], None] | None = None
                ) -> tuple[Search | None, bool]:
    """Merged-path BMC's answer as a finished search (None: none), and whether more time might
    give one. A violation decides the run when one is asked for; with more, only an answer
    that covered every execution does (CEGAR's search goes on otherwise, and finds them
    again). ``merged`` records how far it got, for its second try before path exploration."""
    from ..algorithms.bmc import merged as engine

    out = engine.check(program, Budget(seconds, cancel=opts.cancel), opts.max_violations)  # type: ignore[arg-type]
    merged["bound"] = out.bound
    merged["again"] = int(out.kind == UnknownReason.TIMEOUT)
    merged["deeper"] = int(out.deeper)
    if out.kind == UnknownReason.TIMEOUT:
        # Its second try starts at the bound this one reached: what it finds then, and the
        # path its model picks, depend on the time.
        stats.phases_cut_by_time += 1
    exhaustive = out.kind == UnknownReason.NONE
    if out.status == "unsafe" and (exhaustive or opts.max_violations == 1):
        stats.decided_by = "merged-bmc"
        stats.unwinding_depth = out.bound
        if on_confirmed is not None:
            on_confirmed(list(out.confirmed))
        return Search(status="unsafe", stats=stats, precision={}, confirmed=list(out.confirmed)), False
    if out.status == "safe":
        stats.unwinding_depth = out.bound
        return _proved(stats, "merged-bmc", {}, None), False
    return None, out.kind == UnknownReason.TIMEOUT


def _find_bmc(program: Program, opts: VerifyOptions, out: Search, t0: float,
              on_confirmed: Callable[[list[Confirmed]], None] | None) -> Search | None:
    """BMC through the recursion with the time CEGAR (``out``, cut by its share) left: a
    confirmed violation as the run's answer (None: none found; ``out`` stays the answer)."""
    assert opts.timeout is not None
    remaining = t0 + opts.timeout - time.monotonic()
    if remaining < MIN_SECONDS:
        return None
    from ..algorithms.bmc import recursion

    got = recursion.solve(program, BMC_SHARE * remaining, _cancel(opts))
    out.stats.unwinding_depth = got.depth
    if got.confirmed is None:
        out.reason = f"{out.reason}; BMC through the recursion: {got.reason}"  # how deep none was found
        return None
    out.stats.decided_by = "bmc"
    if on_confirmed is not None:
        on_confirmed([got.confirmed])
    if opts.max_violations == 1:
        return Search(status="unsafe", stats=out.stats, precision={}, confirmed=[got.confirmed])
    # More were asked for: the others' search ran out of time, as CEGAR's did.
    out.status = "unsafe"
    out.confirmed = [got.confirmed]
    out.run_timed_out = True
    return out


def _proved(stats: Statistics, engine: str, summaries: dict[str, str], program: Program | None) -> Search | None:
    """An engine's proof as a finished search. ``program``: for an engine over the whole program,
    whose proof is None where it cannot stand (those engines check scope.applies themselves:
    this holds for any that does not); None for the engines that follow paths, which give up at
    a call of an unsupported function when they reach one."""
    if program is not None and scope.unsupported_reached(program):
        return None
    stats.decided_by = engine
    return Search(status="safe", stats=stats, precision={}, invariants=summaries)


def _also(reason: str, more: str) -> str:
    """Two engines' reasons for one answer, once each (both meet the same unsupported construct)."""
    return more if not reason else reason if not more or more in reason else f"{reason}; {more}"


def _cancel(opts: VerifyOptions) -> Callable[[], bool]:
    return opts.cancel if callable(opts.cancel) else (lambda: False)  # type: ignore[return-value]


def _cparec(program: Program, opts: VerifyOptions, stats: Statistics, cegar: Callable[[bool, float | None], Search],
            t0: float, known: dict[int, CFANode], on_confirmed: Callable[[list[Confirmed]], None] | None) -> Search:
    remaining = NO_LIMIT if opts.timeout is None else t0 + opts.timeout - time.monotonic()
    from ..algorithms import cparec
    from ..algorithms.horn import clauses

    out = cparec.solve(program, remaining, _cancel(opts))
    stats.unwinding_depth = out.depth
    if out.status == "safe" and (proof := _proved(stats, "cparec", out.summaries, program)) is not None:
        return proof
    if out.status == "reachable":
        # Over the integers, within k recursive calls: path exploration confirms it exactly.
        search = Search(status="unknown", kind=UnknownReason.UNCONFIRMED, reason=out.reason, stats=stats,
                        precision={})
        complete(program, opts._replace(path_exploration=True), search, t0, known, on_confirmed, merge_paths=False)
        if search.confirmed:
            stats.decided_by = "cparec"
        return search
    timed_out = out.timed_out or out.reason.startswith(clauses.GAVE_UP)
    if timed_out:  # more time might decide it: not a final answer
        stats.phases_cut_by_time += 1
    return Search(status="unknown", kind=UnknownReason.TIMEOUT if timed_out else UnknownReason.NO_PROGRESS,
                  reason=f"CPArec: {out.reason}", stats=stats, precision={})


# The strategies a configuration can name (registry.Configuration.strategy).
STRATEGIES = {"portfolio": _portfolio, "cparec": _cparec}


def undecided(search: Search, opts: VerifyOptions, found: int) -> bool:
    """Whether CEGAR left error locations undecided, for a reason another engine may overcome."""
    if search.kind in _FINAL or search.stopped in _FINAL or search.run_timed_out:
        return False
    if search.status == "unknown":
        return True
    # A search for further violations that gave up on some location.
    return search.status == "unsafe" and bool(search.reason) and found < opts.max_violations


def complete(program: Program, opts: VerifyOptions, search: Search, t0: float, known: dict[int, CFANode],
             on_confirmed: Callable[[list[Confirmed]], None] | None = None,
             merged: dict[str, int] | None = None, merge_paths: bool = True, tested: bool = False,
             paused: dict[str, Any] | None = None) -> None:
    """Let random tests (unless ``tested``: they ran before), merged-path BMC and then path
    exploration decide what CEGAR left undecided; ``search`` becomes the combined answer.
    ``merged``: how far merged-path BMC got before CEGAR (it is tried again only if its time ran
    out there, from the bound it had reached). Without ``merge_paths`` only path exploration
    runs: CPArec's violation within k calls is to be confirmed, not searched for again (merged
    BMC would unwind past k, and report its own depth). ``paused``: a path exploration paused
    before CEGAR (``_explore_first``), which goes on here where nothing was confirmed since (it
    excludes no error location, and one violation is asked for)."""
    if search.status != "unknown" and not search.stats.decided_by:
        search.stats.decided_by = "cegar"  # an UNKNOWN was decided by no engine
    found = len(search.confirmed) + len(known)
    if not opts.path_exploration or not undecided(search, opts, found):
        return
    remaining = None if opts.timeout is None else t0 + opts.timeout - time.monotonic()
    if remaining is not None and remaining < MIN_SECONDS:
        return
    excluded = dict(known)
    excluded |= {id(c.path.error_node): c.path.error_node for c in search.confirmed}
    streamed = list(search.confirmed)

    def confirmed_now(c: Confirmed) -> None:
        streamed.append(c)
        if on_confirmed is not None:
            on_confirmed(list(streamed))

    if merge_paths and not tested and not traits.uses_memory(program):
        if _complete_tested(program, opts, search, remaining, excluded, confirmed_now, found):
            return
        found = len(search.confirmed) + len(known)
        remaining = None if opts.timeout is None else t0 + opts.timeout - time.monotonic()
        if remaining is not None and remaining < MIN_SECONDS:
            return
    if merge_paths and not scope.merges_paths(program) and (not merged or merged.get("again")):
        if _complete_merged(program, opts, search, remaining, excluded, streamed, confirmed_now, found,
                            (merged or {}).get("bound", 1)):
            return
        found = len(search.confirmed) + len(known)
        remaining = None if opts.timeout is None else t0 + opts.timeout - time.monotonic()
        if remaining is not None and remaining < MIN_SECONDS:
            return
    budget = Budget(remaining, cancel=opts.cancel)  # type: ignore[arg-type]
    from ..algorithms.paths import explore

    explorer = (paused or {}).pop("explorer", None)
    if explorer is not None and found == 0 and opts.max_violations == 1:
        out = explorer.resume(budget)
    else:
        out = explore(program, budget, opts.max_violations - found, excluded, confirmed_now)
    search.stats.explored_paths = out.paths
    search.confirmed.extend(out.confirmed)
    if out.confirmed and search.stats.decided_by == "merged-bmc":
        search.stats.decided_by = "merged-bmc+paths"
    if out.kind == UnknownReason.NONE:  # exhaustive: its answer is the run's
        search.status = "unsafe" if search.confirmed or known else "safe"
        search.kind, search.reason, search.reason_node = UnknownReason.NONE, "", None
        search.stopped = UnknownReason.NONE
        search.stats.decided_by = "paths"
        return
    if out.confirmed:
        if search.stats.decided_by != "merged-bmc+paths":
            search.stats.decided_by = "cegar+paths" if found else "paths"
        if search.status == "unknown":
            search.status = "unsafe"
    if out.kind == UnknownReason.CANCELLED:
        search.kind, search.reason = out.kind, out.reason
        search.stopped = UnknownReason.CANCELLED
        return
    search.reason = _also(search.reason, out.reason)
    if out.kind == UnknownReason.TIMEOUT:
        # More time might have decided it: not an answer the cache may keep as final.
        search.stats.phases_cut_by_time += 1
        if search.status == "unsafe":
            search.stopped, search.run_timed_out = UnknownReason.TIMEOUT, True


def _complete_tested(program: Program, opts: VerifyOptions, search: Search, remaining: float | None,
                     excluded: dict[int, CFANode], confirmed_now: Callable[[Confirmed], None], found: int) -> bool:
    """Random tests for a moment (a quarter of what is left, at most ``TESTING_SECONDS``), where
    they did not run before CEGAR: with more than one violation asked for (the editor's mode),
    or on a program too large for the engines before it. Whether their answer is the run's
    (they found every violation asked for). Violations they confirm join the run's."""
    from ..algorithms import testing

    seconds = TESTING_SECONDS if remaining is None else min(TESTING_SECONDS, remaining / 4)
    new = testing.find(program, Budget(seconds, cancel=opts.cancel), opts.max_violations - found,  # type: ignore[arg-type]
                       excluded, confirmed_now)
    if not new:
        return False
    search.confirmed.extend(new)
    search.stats.decided_by = "cegar+testing" if found else "testing"
    if search.status == "unknown":
        search.status = "unsafe"
    if found + len(new) < opts.max_violations:
        return False
    search.kind, search.reason, search.reason_node = UnknownReason.NONE, "", None
    search.stopped = UnknownReason.NONE
    return True


def _complete_merged(program: Program, opts: VerifyOptions, search: Search, remaining: float | None,
                     excluded: dict[int, CFANode], streamed: list[Confirmed], confirmed_now: Callable[[Confirmed], None],
                     found: int, start_bound: int) -> bool:
    """Merged-path BMC with a share of what CEGAR left (all of it without a limit), before path
    exploration; whether its answer is the run's (it covered every execution, or found every
    violation asked for, or the run was cancelled). Violations it confirms join the run's."""
    from ..algorithms.bmc import merged as engine

    seconds = None if remaining is None else MERGED_LATE_SHARE * remaining
    before = {id(c.path.error_node) for c in search.confirmed}
    out = engine.check(program, Budget(seconds, cancel=opts.cancel), opts.max_violations - found,  # type: ignore[arg-type]
                       excluded, confirmed_now, start_bound)
    new = [c for c in out.confirmed if id(c.path.error_node) not in before]
    search.confirmed.extend(new)
    excluded |= {id(c.path.error_node): c.path.error_node for c in new}
    if new:
        search.stats.decided_by = "cegar+merged-bmc" if found else "merged-bmc"
        search.stats.unwinding_depth = out.bound
        if search.status == "unknown":
            search.status = "unsafe"
    if out.kind == UnknownReason.NONE or found + len(new) >= opts.max_violations:
        search.status = "unsafe" if search.confirmed or found else "safe"
        search.kind, search.reason, search.reason_node = UnknownReason.NONE, "", None
        search.stopped = UnknownReason.NONE
        search.stats.decided_by = "cegar+merged-bmc" if found and new else "merged-bmc"
        search.stats.unwinding_depth = out.bound
        return True
    if out.kind == UnknownReason.CANCELLED:
        search.kind, search.reason = out.kind, out.reason
        search.stopped = UnknownReason.CANCELLED
        return True
    if out.kind == UnknownReason.TIMEOUT:
        search.stats.phases_cut_by_time += 1
    search.reason = _also(search.reason, out.reason)
    return False
