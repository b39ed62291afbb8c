#!/usr/bin/env python3
"""Consistency check for a task folder (bench/memory or bench/memsafety).

    python3 bench/check_task_index.py bench/memory
    python3 bench/check_task_index.py bench/memsafety

Checks, for the folder given:
  * every c/*/*.yml parses, its input_files exists, and the property file the INDEX is about
    (unreach-call.prp / valid-memsafety.prp) resolves relative to the yml;
  * INDEX.tsv has the expected header and one row per yml; each row's source_file,
    expected_verdict, data_model (options.data_model, ILP32 when the yml has no options block)
    and, for memsafety, subproperty agree with the yml;
  * every source passes `gcc -fsyntax-only -w` (with -m32 for .i files whose data model is ILP32).
Prints counts per folder and verdict; exits 1 on any failure.
"""
import collections
import os
import subprocess
import sys

import yaml

HDR_MEM = ['task_yml_path', 'source_file', 'expected_verdict', 'data_model', 'provenance']


def main(root):
    root = os.path.abspath(root)
    memsafety = os.path.basename(root.rstrip('/')) == 'memsafety'
    prp = 'valid-memsafety.prp' if memsafety else 'unreach-call.prp'
    hdr = HDR_MEM + (['subproperty'] if memsafety else [])
    errors = []
    ymls = {}
    for dirpath, _, files in os.walk(os.path.join(root, 'c')):
        for f in files:
            if f.endswith('.yml'):
                p = os.path.join(dirpath, f)
                ymls[os.path.relpath(p, root)] = p
    lines = open(os.path.join(root, 'INDEX.tsv')).read().splitlines()
    if lines[0].split('\t') != hdr:
        errors.append(f'bad INDEX header: {lines[0]!r}')
    rows = [line.split('\t') for line in lines[1:] if line]
    seen = set()
    counts = collections.Counter()
    for r in rows:
        if len(r) != len(hdr):
            errors.append(f'bad row width: {r!r}')
            continue
        rel = r[0]
        seen.add(rel)
        if rel not in ymls:
            errors.append('row without yml: ' + rel)
            continue
        yp = ymls[rel]
        d = yaml.safe_load(open(yp))
        inp = d['input_files']
        inp = inp[0] if isinstance(inp, list) else inp
        src = os.path.normpath(os.path.join(os.path.dirname(yp), inp))
        if not os.path.isfile(src):
            errors.append(f'missing input file: {rel} -> {inp}')
        if os.path.relpath(src, root) != r[1]:
            errors.append(f'source mismatch: {rel}: {os.path.relpath(src, root)} vs {r[1]}')
        verdict, sub, found = None, '', False
        for p in d.get('properties') or []:
            if os.path.basename(p['property_file']) == prp:
                found = True
                if not os.path.isfile(os.path.normpath(os.path.join(os.path.dirname(yp), p['property_file']))):
                    errors.append('property file does not resolve: {}: {}'.format(rel, p['property_file']))
                if 'expected_verdict' in p:
                    verdict = 'true' if p['expected_verdict'] else 'false'
                    sub = p.get('subproperty', '') or ''
        if not found or verdict is None:
            errors.append(f'no {prp} verdict in {rel}')
        elif verdict != r[2]:
            errors.append(f'verdict mismatch: {rel}: yml {verdict}, INDEX {r[2]}')
        dm = str((d.get('options') or {}).get('data_model', 'ILP32'))
        if dm != r[3]:
            errors.append(f'data model mismatch: {rel}: yml {dm}, INDEX {r[3]}')
        if memsafety and sub != r[5]:
            errors.append(f'subproperty mismatch: {rel}: yml {sub!r}, INDEX {r[5]!r}')
        if not r[4].startswith('sosy-lab/sv-benchmarks@'):
            errors.append('bad provenance: ' + rel)
        cmd = ['gcc', '-fsyntax-only', '-w']
        if src.endswith('.i'):
            cmd += ['-x', 'c']
            if dm == 'ILP32':
                cmd.append('-m32')
        res = subprocess.run(cmd + [src], capture_output=True, text=True)
        if res.returncode != 0:
            errors.append(f'gcc -fsyntax-only failed for {r[1]}:\n{res.stderr[:500]}')
        counts[(rel.split('/')[1], r[2])] += 1
    for rel in sorted(set(ymls) - seen):
        errors.append('yml not in INDEX: ' + rel)
    folders = sorted({k[0] for k in counts})
    print(f"{'folder':<28} {'true':>5} {'false':>5}")
    for f in folders:
        print(f"{f:<28} {counts[(f, 'true')]:>5} {counts[(f, 'false')]:>5}")
    n_true = sum(v for k, v in counts.items() if k[1] == 'true')
    n_false = sum(v for k, v in counts.items() if k[1] == 'false')
    print(f"{'TOTAL':<28} {n_true:>5} {n_false:>5}  (total {len(rows)})")
    for e in errors:
        print('ERROR:', e)
    print('OK' if not errors else f'{len(errors)} error(s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))))
