"""What a verification run is asked to do (kept apart from the engine, so that a client can
build options, and the cache key they decide, without importing the analyses)."""

from __future__ import annotations

import builtins
from collections import namedtuple

from .cpa import registry

TYPE_CHECKING = False  # typing itself is not imported: see frontend/errors.py
if TYPE_CHECKING:
    from typing import NamedTuple as LightNamedTuple

    from .cache.store import CacheStore
else:
    class _LightNamedTupleMeta(type):
        """typing.NamedTuple's class syntax (fields with their types and defaults) made into a
        collections.namedtuple without importing typing: the type checker reads the class as
        a NamedTuple, the interpreter gets the plain tuple class with the body's methods."""

        def __new__(mcs, name, bases, namespace):
            if not bases:
                return super().__new__(mcs, name, bases, namespace)
            fields = list(namespace.get("__annotations__", {}))
            base = namedtuple(name, fields, defaults=[namespace[f] for f in fields])
            body = {k: v for k, v in namespace.items() if k not in fields and k != "__annotations__"}
            body["__slots__"] = ()
            return type(name, (base,), body)

    class LightNamedTuple(metaclass=_LightNamedTupleMeta):
        pass

# The predicate theories and data models a run can ask for (the configurations are the
# analysis registry's).
THEORIES = ("bv", "lia")
DATA_MODELS = ("LP64", "ILP32")


PROPERTIES = ("unreach-call", "memsafety")


class NativeReplay(LightNamedTuple):
    """How a FALSE is run natively (cex/native_replay.py): the program as gcc is to read it
    (the file ``source``, or ``text`` for it when the editor holds unsaved text, with the include
    paths, macros and standard of ``preprocess``, a frontend.preprocess.PreprocessOptions), at
    most ``time_limit`` seconds for its compile and run (within the run's own limit), where a
    disagreement is kept (None: $CBAM_REPLAY_DIR, else the user's cache directory), and the
    program's other translation units, each compiled with its own flags and linked in."""

    source: str = ""  # "": the program's main file
    text: str | None = None
    preprocess: object = None
    time_limit: float = 10.0
    keep_dir: str | None = None
    units: tuple = ()  # the other translation units linked with it (frontend.link.Unit)


class VerifyOptions(LightNamedTuple):
    """A named tuple, not a dataclass, for the reason given in frontend/errors.py: the command
    line builds options (and the cache key they decide) on the path that answers an unchanged
    source from the cache."""

    config: str = registry.DEFAULT
    timeout: float | None = 60.0
    max_violations: int = 1
    order: str = "dfs"
    harness: bool = True
    cancel: object = None  # callable returning True when the run should stop
    extra_search_after_violation: float | None = None  # seconds for further violations after the first
    cache: CacheStore | None = None  # cache.store.CacheStore, or None for no persistent cache
    predicate_theory: str = "bv"  # path formulas of the predicate analysis: "bv" (exact) or "lia" (checked)
    # Called with a partial VerificationResult each time a violation is confirmed while the search
    # goes on (the editor shows it at once). Like cancel, it changes no result: not in a key.
    on_partial: object = None
    # "unreach-call": no assertion fails; "memsafety": no invalid dereference or free
    # (SV-COMP's valid-deref and valid-free, see cfa/memsafety.py).
    property: str = "unreach-call"
    # malloc, calloc and realloc may return NULL (cfa/allocation.py); by default they succeed.
    alloc_may_fail: bool = False
    # An entry function's pointer parameters may be NULL (cfa/nullable.py); by default each
    # points to a fresh object.
    entry_null: bool = False
    # Path exploration decides what CEGAR leaves undecided (pipeline/portfolio.py).
    path_exploration: bool = True
    # Whole-program invariants from Horn clauses are tried first on small programs (pipeline/portfolio.py).
    horn: bool = True
    # Each FALSE is compiled with its harness and run before it is reported (a NativeReplay;
    # cex/native_replay.py), None: it stands on the path check. Not in a key: the cache holds
    # what the path check said, and every answer, from the cache or not, is replayed again.
    replay: NativeReplay | None = None

    @builtins.property  # (``property`` is a field here)
    def theory(self) -> str:
        """The theory a run actually uses (a configuration without predicates has one theory)."""
        conf = registry.CONFIGURATIONS.get(self.config)
        return self.predicate_theory if conf is not None and conf.uses_theory else "bv"

    def analysis_material(self) -> list:
        """The options a block abstraction depends on: the analysis and how it explores.
        (The time limit does not: only complete block analyses are kept.)"""
        # The memory-safety checks and failing allocations are in the CFA (its fingerprints), and here.
        extra = [self.property] if self.property != "unreach-call" else []
        extra += ["alloc-may-fail"] if self.alloc_may_fail else []
        extra += ["entry-null"] if self.entry_null else []
        return [self.config, self.theory, self.order, *extra]

    def key_material(self) -> list:
        """Every option that can change a run's result, in a fixed order; each cache key of a
        run is derived from it (cache/keys.py). Not in it: the time limit (a run cut short by
        it is never stored as a result), cancellation, the listener for partial results and the
        cache itself."""
        extra = [] if self.path_exploration else ["no-path-exploration"]
        extra += [] if self.horn else ["no-horn"]
        return [*self.analysis_material(), self.max_violations, self.harness, self.extra_search_after_violation,
                *extra]
