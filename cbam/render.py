"""How the command line shows a report: a result's JSON form (the report ``--format json``
prints, for fresh and cached answers alike) rendered as text, gcc-style."""

from __future__ import annotations

import argparse
import os


def write_harnesses(harnesses: list[str | None], args: argparse.Namespace, source: str) -> list[str]:
    written: list[str] = []
    for i, harness in enumerate(harnesses):
        if harness is None:
            continue
        target = None
        if args.harness and i == 0:
            target = args.harness
        elif args.harness_dir:
            os.makedirs(args.harness_dir, exist_ok=True)
            stem = os.path.splitext(os.path.basename(source))[0]
            target = os.path.join(args.harness_dir, f"{stem}.harness{'' if i == 0 else f'-{i + 1}'}.c")
        if target:
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(harness)
            written.append(target)
    return written


def _at(r: dict) -> str:
    """A JSON range as a compiler names a place: file:line:column."""
    return f"{r['file']}:{r['start']['line']}:{r['start']['column']}"


def print_text(report: dict, source: str, harnesses: list[str]) -> None:
    for w in report["warnings"]:
        print(w)
    for v in report["violations"]:
        where = _at(v["range"]) if v["range"] else source
        print(f"{where}: error: {v['message'].split(' (for example', 1)[0]}")
        print("  error path:")
        for s in v["path"]:
            r = s["range"]
            loc = f"{os.path.basename(r['file'])}:{r['start']['line']}" if r else "(input)"
            text = " ".join(s["text"].split()) if s["kind"] not in ("error", "branch") else ""
            if len(text) > 44:
                text = text[:41] + "..."
            print(f"    {loc:<18} {text:<44}  {s['message']}")
        if v["inputs"]:
            print("  inputs:")
            for inp in v["inputs"]:
                print(f"    {inp['source']}() = {inp['value']}" if not inp["source"].startswith("input ")
                      else f"    {inp['source'][6:]} = {inp['value']}")
        for n in v["notes"]:
            print(f"  note: {n}")
        replay = v.get("replay")
        if replay is not None and replay["status"] == "replayed":
            print(f"  replayed (compiled by gcc with its test harness): the run {replay['observed']}")
        elif replay is not None:
            print(f"  not replayed: {replay['reason']} (the violation rests on cbam's path check alone)")
    for h in harnesses:
        print(f"  test harness written to {h} (build: gcc {source} {h})")
    verdict = report["verdict"]
    if verdict == "UNKNOWN" and report["unsupported"] is not None:
        print(f"{_at(report['unsupported'])}: note: {report['reason']}")
    if verdict == "UNKNOWN" and report["reason_range"] is not None and report.get("replay") is not None:
        print(f"{_at(report['reason_range'])}: note: the violation the path check found here did not replay: "
              f"{report['replay']['reason']}")
    elif verdict == "UNKNOWN" and report["reason_range"] is not None:
        print(f"{_at(report['reason_range'])}: note: cbam could neither prove nor refute this check")
    st = report["statistics"]
    print(f"Statistics: {st['time']:.3f}s, {st['states']} states, {st['refinements']} refinements, "
          f"BAM cache {st['cache_hits']} hits / {st['cache_misses']} misses")
    if report["source"] == "cache" and st["blocks_analysed"]:
        print(f"Result from the summary cache: the counterexample was re-validated ({st['blocks_analysed']} changed "
              f"blocks re-explored, {st['summary_hits']} summaries reused).")
    elif report["source"] == "cache":
        print("Result from the summary cache (the program's functions are unchanged since it was computed).")
    elif st["summary_hits"]:
        print(f"Computed fresh; {st['summary_hits']} block summaries reused from the cache, "
              f"{st['summary_misses']} re-explored.")
    else:
        print("Computed fresh.")
    if verdict == "TRUE":
        print("Verification result: TRUE. No property violation found by chosen configuration.")
    elif verdict == "FALSE":
        kinds = [v.get("kind", "") for v in report.get("violations", [])]
        prop = next((k for k in kinds if k.startswith("valid-")), "unreach-call")
        print(f"Verification result: FALSE({prop}). Property violation ({prop}) found by chosen configuration."
              if prop != "unreach-call" else
              "Verification result: FALSE. Property violation (unreach-call) found by chosen configuration.")
    else:
        print(f"Verification result: UNKNOWN, incomplete analysis. ({report['reason']})")
