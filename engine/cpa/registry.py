"""The analyses cbam can run, and the configurations that combine them: the one place that names
them. The command line's choices, the settings' allowed values and the VS Code extension's enum
(checked by a test) come from here.

An analysis is a package that exports ``ANALYSIS`` (an :class:`Analysis`): its CPA factory, its
refiner, its precision codec and the program-wide facts its transfer reads (which cache keys
include). BAM, CEGAR, the cache, the command line and the server know no analysis by name. A new
analysis is its package plus one :class:`Configuration` line below (or, for a package outside
cbam such as the tests' sign domain, one :func:`register` call).

This module is imported on the path that answers an unchanged source from the cache, so it
imports nothing: packages are loaded when a configuration is run.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # typing itself is not imported: see cache/store.py
if TYPE_CHECKING:
    from typing import Any

    from ..cfa.cfa import Program
    from ..core.cpa import CPA, Block
    from ..core.refinement import Refiner


class Configuration(namedtuple("Configuration", "name analyses description uses_theory strategy",
                                defaults=("portfolio",))):
    """``analyses``: the component analyses after location and callstack, in order (a bare name is
    the package ``cbam.engine.cpa.<name>``, a dotted name any importable package). The first
    one's precision schedule sets the phases; refiners are tried in this order.
    ``uses_theory``: whether ``--predicate-theory`` changes what the analyses compute.
    ``strategy``: how the run searches (pipeline/portfolio.py): "portfolio" (its engines in
    order, CEGAR with these analyses among them) or "cparec" (CPArec alone, Chen et al. 2014)."""

    __slots__ = ()


class Analysis(namedtuple("Analysis", "name make_cpa make_refiner precision context_facts prunes_branches invariants",
                          defaults=(False, None))):
    """What an analysis package exports.

    * ``make_cpa(setup: Setup) -> CPA``;
    * ``make_refiner(cpa) -> Refiner`` or None (nothing to refine);
    * ``precision``: a codec (see :class:`PrecisionCodec`) or None (the domain has no precision);
    * ``context_facts(program) -> JSON``: program-wide facts its transfer reads beyond a function's
      own code; every block abstraction's key includes them;
    * ``prunes_branches``: its transfer drops the infeasible branches it can see (so an analysis
      beside it may skip checking them again);
    * ``invariants(program, precision, deadline) -> {(function, canonical node index): [fact]}``
      or None: what the analysis knows at each location, offered to the other engines as
      candidate invariants (k-induction's step case; pipeline/portfolio.py). ``precision`` is
      what a search of the run ended with (None if it has not run); a fact is a linear atom
      ``(op, ((variable, coefficient), ...), constant)``, ``op`` "<=" or "==", over program
      variables (an entry copy ends in ``@old``). Candidates, not facts: whoever assumes one
      proves it first, so an analysis may offer what it only guesses.
    """

    __slots__ = ()


class Setup(namedtuple("Setup", "program blocks theory companions")):
    """What a CPA factory gets: the program, its procedure blocks, the predicate theory, and the
    other analyses it runs beside (a domain may leave to them what they do better)."""

    __slots__ = ()

    @property
    def companion_prunes_branches(self) -> bool:
        return any(a.prunes_branches for a in self.companions)


class PrecisionCodec:
    """An analysis's precisions: the schedule a run tries, their JSON form, and which part of an
    earlier run's precision is worth trying again on a changed program."""

    def schedule(self, program: Program) -> list[tuple[Any, float]]:
        """(precision, share of the time left) per phase; the last phase gets the rest."""
        raise NotImplementedError

    def to_json(self, prec: Any) -> Any:
        raise NotImplementedError

    def from_json(self, data: Any) -> Any:
        raise NotImplementedError

    def reuse(self, program: Program, prec: Any) -> Any | None:
        """The part of ``prec`` (learned on an earlier version) that still applies to ``program``;
        None if nothing is worth a first phase."""
        return None


DEFAULT = "value+predicate"

# Analyses whose invariants k-induction is offered whatever the run's configuration, as
# CPAchecker's k-induction runs an invariant generator beside it: they cost a moment.
INVARIANT_GENERATORS = ("interval",)

CONFIGURATIONS: dict[str, Configuration] = {c.name: c for c in (
    Configuration("value", ("value",),
                  "Explicit-value analysis with CEGAR (fast on concrete values and recursion).", False),
    Configuration("interval", ("interval",), "Interval analysis with widening (no refinement).", False),
    Configuration("predicate", ("predicate",),
                  "Predicate abstraction with tree interpolation (relational summaries such as \\result == n + m).",
                  True),
    Configuration("value+predicate", ("value", "predicate"),
                  "Value analysis first; predicate refinement when a path is infeasible only through relations.",
                  True),
    # The analyses only matter for what the cache keeps beside CPArec's results.
    Configuration("cparec", ("value",),
                  "CPArec alone: recursion unwound k deep, summaries from its invariants, checked for inductiveness.",
                  False, "cparec"),
)}


_BUILT_IN = frozenset(CONFIGURATIONS)


def register(configuration: Configuration) -> None:
    """Add a configuration (and so its analyses) at run time."""
    if configuration.name in _BUILT_IN:
        raise ValueError(f"configuration {configuration.name!r} is built in")
    CONFIGURATIONS[configuration.name] = configuration


def unregister(name: str) -> None:
    """Remove a configuration added by :func:`register`."""
    if name in _BUILT_IN:
        raise ValueError(f"configuration {name!r} is built in")
    CONFIGURATIONS.pop(name, None)


def names() -> tuple[str, ...]:
    return tuple(CONFIGURATIONS)


def configuration(name: str) -> Configuration:
    """KeyError names the configurations there are."""
    try:
        return CONFIGURATIONS[name]
    except KeyError:
        raise KeyError(f"unknown configuration {name!r} (available: {', '.join(CONFIGURATIONS)})") from None


def module_of(analysis: str) -> str:
    return analysis if "." in analysis else f"cbam.engine.cpa.{analysis}"


def analyses(config: Configuration) -> list[Analysis]:
    import importlib

    return [importlib.import_module(module_of(a)).ANALYSIS for a in config.analyses]


def invariants(config: Configuration, program: Program, precisions: dict[str, Any], deadline: float,
               ) -> dict[tuple[str, int], list[tuple]]:
    """The candidate invariants per location that the configuration's analyses and the
    ``INVARIANT_GENERATORS`` offer (see :class:`Analysis`), each analysis given the precision
    the run's search ended with under its name (None if it has none). An analysis past the
    deadline offers nothing."""
    import importlib
    import time

    found = analyses(config)
    found += [a for a in (importlib.import_module(module_of(n)).ANALYSIS for n in INVARIANT_GENERATORS)
              if all(a.name != b.name for b in found)]
    out: dict[tuple[str, int], list[tuple]] = {}
    for a in found:
        if a.invariants is None or time.monotonic() > deadline:
            continue
        for loc, facts in a.invariants(program, precisions.get(a.name), deadline).items():
            have = out.setdefault(loc, [])
            have.extend(f for f in facts if f not in have)
    return out


def build(config: Configuration, program: Program, blocks: dict[str, Block], theory: str):
    """The composite CPA of a configuration (location x callstack x its analyses) and their
    descriptors, in the composite's order."""
    from ..core.cpa import CompositeCPA
    from .callstack import CallstackCPA
    from .location import LocationCPA

    found = analyses(config)
    parts: list[CPA] = []
    for a in found:
        others = tuple(b for b in found if b is not a)
        parts.append(a.make_cpa(Setup(program, blocks, theory, others)))
    return CompositeCPA([LocationCPA(program), CallstackCPA(), *parts]), found


def refiner(found: list[Analysis], cpa) -> Refiner | None:
    """The configuration's refiner: its analyses' refiners, tried in order (the first that
    rules the path out wins); None if none of them refines."""
    from ..core.refinement import ChainRefiner

    parts = []
    for a, component in zip(found, cpa.components[2:]):
        if a.make_refiner is not None:
            parts.append(a.make_refiner(component))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else ChainRefiner(parts)


def context_facts(found: list[Analysis], program: Program) -> list:
    return [[a.name, a.context_facts(program)] for a in found if a.context_facts is not None]


def struct_layouts(program: Program) -> dict[str, list]:
    """A context fact of every domain that reads memory: each struct's members with their
    offsets, size and alignment. A function's fingerprint names the members it reaches, not
    where they lie, which packed, aligned and #pragma pack decide outside the function."""
    out: dict[str, list] = {}
    for k, fields in sorted(program.structs.items()):
        offsets = getattr(fields, "offsets", None) or [None] * len(fields)
        out[k] = [[f, t.key(), o] for (f, t), o in zip(fields, offsets)] + \
            [getattr(fields, "size", None), getattr(fields, "align", None)]
    return out


def memory_context(program: Program) -> dict:
    """The context facts of a domain whose transfer reads memory: which variables have their
    address taken, and the layout of every struct."""
    return {"addressed": addressed_variables(program), "structs": struct_layouts(program)}


def addressed_variables(program: Program) -> list[str]:
    """A context fact of every domain that tracks variables: which have their address taken (a
    write through a pointer, or an external function, may change them)."""
    return sorted(n for n, v in program.vars.items() if v.addressed)
