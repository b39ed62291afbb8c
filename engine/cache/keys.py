"""What identifies a cached value, decided in one place.

Every layer of the cache stores a value under a key made of everything the value depends
on, so that a hit is exactly what a fresh computation would give (as CPAchecker's
``Reducer.getHashCodeForState(state, precision)`` decides a block's identity in one place):

* every key depends on cbam's own code (``engine_code``): a result filed by an engine
  whose code was since changed (an upgrade, a fix, an edit of a checkout) is never read as
  this engine's;
* a **whole result** depends on the code the entry can reach (the fingerprints of every
  reachable function and the start function, which holds the globals and the entry call, and
  the source text of their statements, which its error paths quote),
  the program-wide facts the domains read, the data model, and every option that can change
  a result (``VerifyOptions.key_material``);
* an **unchanged source's answer** depends on the source's content address (the
  preprocessed text, the original files, the front end's options, the entry) and the same
  options;
* a **block abstraction** depends on its function's code (for a recursive function, the code
  of its whole call tree; for any other function, its own code, with callee summaries checked
  one by one on reuse), its reduced entry state and precision, the analysis that computed it
  (``VerifyOptions.analysis_material``), the program-wide facts, and the error locations the
  search had already excluded inside it (a search for further violations prunes them);
  its **validity** (``PersistentBlocks.validity``: the code, precision and excluded targets
  of everything the block can reach) says when the callee summaries it consumed are
  certainly what they were, so that they need no check one by one; each consumed summary
  (of a non-recursive callee, final) also records its callee's validity, so that a check
  that does run skips the callees whose reach the edit did not touch;
* a **counterexample certificate** depends on the file, its entry point and every option that
  decides the path; a **learned precision** (a hint, never an answer) is kept per file,
  configuration and entry point.

Nothing here imports the analyses: the command line derives the unchanged-source key on
the path that answers it before anything is parsed.
"""

from __future__ import annotations

import json
import os

from cbam import __version__

from ..sha import code_files, sha256

TYPE_CHECKING = False  # typing itself is not imported: see store.py
if TYPE_CHECKING:
    from typing import Any

    from ..cfa.cfa import Program
    from ..options import VerifyOptions

# Bumped whenever what a key is made of changes, so that no entry filed under an older
# recipe is ever read as if it were filed under the current one.
KEY_RECIPE = "keys-4"  # keys-4: results may come from the Horn-clause engine (pipeline/portfolio.py)


_ENGINE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_engine_code: dict[str, str] = {}


def engine_code(root: str = _ENGINE) -> str:
    """cbam's version and the state of the engine's sources under ``root``: each file's path,
    size and modification time (a stat per file, under a millisecond for the whole tree).
    cbam's version alone says nothing between releases: a checkout that fixes the translation
    of a program keeps ``0.1.0``, and without this its cache would go on answering that
    program with what the older engine said."""
    got = _engine_code.get(root)
    if got is None:
        # Stats, where the CFA cache hashes contents (cfa/reuse.py): this is on the path that
        # answers an unchanged source, and reading the whole engine would cost it milliseconds.
        files = []
        for path in code_files(root):
            st = os.stat(path)
            files.append((os.path.relpath(path, root), st.st_size, st.st_mtime_ns))
        got = _engine_code[root] = digest(__version__, files)
    return got


def digest(*parts: Any, length: int = 40) -> str:
    """The one hash of the cache: SHA-256 of the parts as canonical JSON (sets and tuples as
    lists; anything else JSON cannot hold by its str)."""
    text = _ENCODER.encode(parts)
    return sha256(text.encode()).hexdigest()[:length]


# json.dumps with these arguments would make this encoder on every call (a thousand per edit).
_ENCODER = json.JSONEncoder(sort_keys=True, default=str, separators=(",", ":"))


def analysis_context(program: Program, opts: VerifyOptions) -> str:
    """What every block abstraction of a run depends on besides its own block: the analysis and
    the program-wide facts its domains read beyond a function's own code (each analysis says
    which, in its registry entry)."""
    from ..cpa import registry

    found = registry.analyses(registry.configuration(opts.config))
    return digest(KEY_RECIPE, engine_code(), opts.analysis_material(), program.data_model.name,
                  registry.context_facts(found, program))


def result_key(program: Program, opts: VerifyOptions) -> str:
    from ..cfa.callgraph import CallGraph

    cg = program.callgraph if isinstance(program.callgraph, CallGraph) else CallGraph.of(program)
    reach = sorted(cg.reachable(program.start.name))
    from ..cfa.fingerprint import presentation_text

    fns = [program.function_of_name(f) for f in reach]
    fps = [(fn.name, fn.fingerprint) for fn in fns]
    # The texts its error paths quote (a result is shown, not only decided).
    shown = digest(*(presentation_text(fn) for fn in fns))
    return digest(KEY_RECIPE, "result", opts.key_material(), analysis_context(program, opts), program.entry, fps,
                  shown, length=64)


def source_run_key(source_key: str | None, opts: VerifyOptions) -> str | None:
    """The key of a run on a source (None: the source's files could not all be read)."""
    if source_key is None:
        return None
    return digest(KEY_RECIPE, "source", engine_code(), source_key, opts.key_material(), length=64)


def certificate_run(opts: VerifyOptions, entry: str) -> str:
    """The kind of run a counterexample certificate answers (stored beside the file's name): each
    entry point of a file has its own, as its violations and their order are its own."""
    return digest(KEY_RECIPE, "certificate", opts.key_material(), entry)


def precision_slot(config: str, entry: str) -> str:
    """Where a file's learned precision is kept (beside the file's name): per configuration and
    entry point, so that one entry's hint never steers another's search."""
    return f"{config}@{entry}"
