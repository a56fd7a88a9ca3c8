#!/usr/bin/env python3
"""How long ksynth takes to read files (clang's parse and the lowering of every kernel, no
proofs), with the CUDA toolkit's host-library headers and with ksynth's own declarations
(--cuda-path none): per file the median of R runs, and the median and maximum over the files.
A file counts as parsed when ksynth gets as far as looking for a kernel by name (it asks for
one that no file has, so nothing is verified).

Usage: bench/parse_time.py DIR... [--ksynth build/ksynth] [-r 3] [--args 'FLAGS'] [--json OUT]
Prints a markdown table."""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = '__ksynth_parse_time_probe__'


def once(ksynth, path, extra):
    t = time.monotonic()
    p = subprocess.run([ksynth, 'verify', path, '--kernel', PROBE] + extra, capture_output=True, text=True,
                       timeout=600)
    dt = time.monotonic() - t
    parsed = p.returncode == 65 and "no __global__ kernel named '%s'" % PROBE in p.stderr
    first = next((l for l in p.stderr.splitlines() if 'error:' in l), '')
    return dt, parsed, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('dirs', nargs='+')
    ap.add_argument('--ksynth', default=os.path.join(ROOT, 'build', 'ksynth'))
    ap.add_argument('-r', '--repeat', type=int, default=3)
    ap.add_argument('--args', default='', help='extra ksynth verify flags')
    ap.add_argument('--json', help='write one JSON row per file and mode')
    args = ap.parse_args()
    files = sorted(os.path.join(d, f) for top in args.dirs for d, _, fs in os.walk(top) for f in fs
                   if f.endswith('.cu'))
    modes = [('toolkit or ksynth', []), ('ksynth only', ['--cuda-path', 'none'])]
    rows = []
    for f in files:
        for mode, flags in modes:
            runs = [once(args.ksynth, f, flags + shlex.split(args.args)) for _ in range(args.repeat)]
            rows.append({'file': f, 'mode': mode, 'seconds': statistics.median(r[0] for r in runs),
                         'parsed': runs[0][1], 'error': '' if runs[0][1] else runs[0][2]})
    if args.json:
        with open(args.json, 'w') as out:
            for r in rows:
                out.write(json.dumps(r) + '\n')
    print('| file | mode | parsed | seconds (median of %d) |' % args.repeat)
    print('|---|---|---|---|')
    for r in rows:
        print('| %s | %s | %s | %.2f |' % (os.path.relpath(r['file']), r['mode'], 'yes' if r['parsed'] else
                                          'no: ' + r['error'][:80].replace('|', '/'), r['seconds']))
    print()
    for mode, _ in modes:
        ts = [r['seconds'] for r in rows if r['mode'] == mode]
        ok = sum(r['parsed'] for r in rows if r['mode'] == mode)
        print('%s: %d of %d files parsed; seconds median %.2f, max %.2f' % (mode, ok, len(ts), statistics.median(ts),
                                                                          max(ts)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
