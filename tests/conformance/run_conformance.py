#!/usr/bin/env python3
"""Runs ksynth over GPUVerify's CUDA test suite and compares with GPUVerify's expectations.

Each `kernel.cu` of the suite says what GPUVerify expects in line 1 (`//pass`,
`//xfail:NOT_ALL_VERIFIED`, `//xfail:BUGLE_ERROR`, `//xfail:CLANG_ERROR`, any case) and
gives GPUVerify's options in line 2 (`//--blockDim=64 --gridDim=64 --no-inline -DWIDTH=2064`).
`--blockDim=`, `--gridDim=` and `-D` options are passed to ksynth; every other GPUVerify
flag is ignored and recorded. ksynth runs as

    ksynth verify kernel.cu <options> --checks race,barrier,assert --json

(GPUVerify's default semantics). Classification:

  expectation        ksynth PROVEN     REFUTED          UNKNOWN / exit 65 / 70 / timeout
  pass               agree             disagree         unknown
  NOT_ALL_VERIFIED   SOUNDNESS         agree            unknown
  BUGLE/CLANG_ERROR  differs           differs          agree (exit 65 or UNKNOWN),
                                                         otherwise differs

A SOUNDNESS disagreement (a kernel GPUVerify knows to be buggy, proven by ksynth) always
fails the run. tests/conformance/baseline.json maps each kernel (path relative to the
suite) to {verdict, category, reason}; `reason` documents a known difference of semantics
and is kept across --update-baseline. With --baseline every changed verdict is printed and
fails the run. For
`//xfail:NOT_ALL_VERIFIED` kernels the baseline also records `failure`: `race`,
`barrier` or `other` (an assertion, a null pointer, a write to constant memory, ...), read
from the kernel's own comments, so that the race/divergence refutation rate can be reported.

Usage: tests/conformance/run_conformance.py [--ksynth PATH] [--suite DIR] [--baseline [FILE]]
                                            [--update-baseline] [-j N] [-k SUBSTRING]
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SUITE = os.path.join(REPO_ROOT, '..', 'shared', 'conformance', 'gpuverify', 'CUDA')
DEFAULT_KSYNTH = os.path.join(REPO_ROOT, 'build', 'ksynth')
DEFAULT_BASELINE = os.path.join(HERE, 'baseline.json')
TIMEOUT_S = 30
CHECKS = 'race,barrier,assert'

EXIT_FOR_VERDICT = {'proven': 0, 'refuted': 1, 'unknown': 2, 'bounded': 2}
EXIT_NAMES = {64: 'usage-error', 65: 'malformed', 70: 'internal-error'}

EXPECTATIONS = {
    'pass': 'pass',
    'xfail:not_all_verified': 'not_all_verified',
    'xfail:bugle_error': 'bugle_error',
    'xfail:clang_error': 'clang_error',
}

DISPLAY = {'pass': 'pass', 'not_all_verified': 'NOT_ALL_VERIFIED',
           'bugle_error': 'BUGLE_ERROR', 'clang_error': 'CLANG_ERROR'}


def parse_kernel_header(path):
    """Returns (expectation or None, first line, ksynth args, ignored GPUVerify flags, problem)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        line1 = f.readline().strip()
        line2 = f.readline().strip()
    tag = re.sub(r'\s+', '', line1[2:] if line1.startswith('//') else line1).lower()
    expectation = EXPECTATIONS.get(tag)
    args, ignored, problem = [], [], None
    if expectation is None:
        problem = 'unrecognised expectation line %r' % line1
    if not line2.startswith('//'):
        return expectation, line1, args, ignored, problem or 'line 2 holds no options'
    try:
        words = shlex.split(line2[2:])
    except ValueError as e:
        return expectation, line1, args, ignored, 'cannot split options: %s' % e
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith('--blockDim=') or w.startswith('--gridDim='):
            args.append(w)
        elif w in ('--blockDim', '--gridDim') and i + 1 < len(words):
            args.append(w + '=' + words[i + 1])
            i += 1
        elif w == '-D' and i + 1 < len(words):
            args += ['-D', words[i + 1]]
            i += 1
        elif w.startswith('-D') and len(w) > 2:
            args += ['-D', w[2:]]
        else:
            ignored.append(w)
        i += 1
    return expectation, line1, args, ignored, problem


def parse_json_stdout(text):
    text = text.strip()
    if not text:
        return None
    try:
        obj = json.loads(text)
        return obj if isinstance(obj, dict) else None
    except ValueError:
        pass
    start, end = text.find('{'), text.rfind('}')
    if 0 <= start < end:
        try:
            obj = json.loads(text[start:end + 1])
            return obj if isinstance(obj, dict) else None
        except ValueError:
            return None
    return None


def run_ksynth(ksynth, path, args, timeout, checks=CHECKS):
    """Runs ksynth once; returns dict(verdict, exit, time_s, problem, stderr, cmd, reason).
    verdict is proven/refuted/unknown/bounded or a pseudo-verdict: timeout, malformed,
    usage-error, internal-error, crash, no-json."""
    cmd = [ksynth, 'verify', path] + list(args) + ['--checks', checks, '--json']
    res = {'cmd': cmd, 'verdict': None, 'exit': None, 'time_s': 0.0, 'problem': None,
           'stderr': '', 'reason': ''}
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        res['time_s'] = time.monotonic() - t0
        res['verdict'] = 'timeout'
        res['stderr'] = (e.stderr or b'').decode('utf-8', 'replace')
        return res
    except OSError as e:
        res['time_s'] = time.monotonic() - t0
        res['verdict'] = 'crash'
        res['problem'] = 'cannot run %s: %s' % (ksynth, e)
        return res
    res['time_s'] = time.monotonic() - t0
    res['exit'] = p.returncode
    res['stderr'] = p.stderr.decode('utf-8', 'replace')
    if p.returncode < 0:
        res['verdict'] = 'crash'
        res['problem'] = 'killed by signal %d' % -p.returncode
        return res
    report = parse_json_stdout(p.stdout.decode('utf-8', 'replace'))
    if report is None or not isinstance(report.get('verdict'), str):
        res['verdict'] = EXIT_NAMES.get(p.returncode, 'no-json')
        if res['verdict'] == 'no-json':
            res['problem'] = 'exit %d without a JSON verdict' % p.returncode
        return res
    v = report['verdict'].strip().lower()
    res['verdict'] = v
    if v in EXIT_FOR_VERDICT and EXIT_FOR_VERDICT[v] != p.returncode:
        res['problem'] = 'exit %d does not match verdict %s' % (p.returncode, v)
    # First reason given by a non-proven obligation: shown in the table.
    for k in report.get('kernels') or []:
        for o in (k.get('obligations') or []) if isinstance(k, dict) else []:
            if isinstance(o, dict) and str(o.get('status', '')).lower() != 'proven':
                res['reason'] = '%s %s%s' % (o.get('kind', '?'), o.get('status', '?'),
                                             (': ' + str(o['reason'])) if o.get('reason') else '')
                break
        if res['reason']:
            break
    return res


def expected_messages(path):
    """GPUVerify's expected output lines (the `//` lines after the first two)."""
    msgs = []
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().splitlines()
    for line in lines[2:]:
        if not line.startswith('//'):
            break
        msgs.append(line[2:].strip())
    return msgs


def classify(expectation, res, path=None):
    """Returns one of: agree, disagree, soundness, unknown, differs, error."""
    v = res['verdict']
    if expectation == 'not_all_verified' and v == 'proven' and path:
        # GPUVerify also fails kernels whose *user-written loop invariant* does not hold;
        # ksynth ignores such invariants (it summarises loops itself), so proving the kernel
        # is a documented difference, not a missed race or divergence.
        msgs = ' '.join(expected_messages(path)).lower()
        if 'invariant' in msgs and 'race' not in msgs and 'barrier' not in msgs:
            return 'differs'
    v = res['verdict']
    if expectation == 'pass':
        if v == 'proven':
            return 'agree'
        if v == 'refuted':
            return 'disagree'
        return 'unknown'
    if expectation == 'not_all_verified':
        if v == 'refuted':
            return 'agree'
        if v == 'proven':
            return 'soundness'
        return 'unknown'
    if expectation in ('bugle_error', 'clang_error'):
        if v in ('malformed', 'unknown'):
            return 'agree'
        return 'differs'
    return 'error'


def find_kernels(suite):
    found = []
    for root, dirs, files in os.walk(suite):
        dirs.sort()
        if 'kernel.cu' in files:
            found.append(os.path.join(root, 'kernel.cu'))
    return sorted(found)


def load_baseline(path):
    with open(path, encoding='utf-8') as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError('baseline must be a JSON object')
    return data


def write_baseline(path, entries):
    lines = ['  %s: %s' % (json.dumps(rel), json.dumps(entries[rel], sort_keys=True))
             for rel in sorted(entries)]
    with open(path, 'w', encoding='utf-8') as f:
        f.write('{\n' + ',\n'.join(lines) + '\n}\n')


def pct(a, b):
    return '%.1f%%' % (100.0 * a / b) if b else 'n/a'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ksynth', default=DEFAULT_KSYNTH, help='ksynth executable (default: build/ksynth)')
    ap.add_argument('--suite', default=DEFAULT_SUITE,
                    help='GPUVerify CUDA suite folder (default: ../shared/conformance/gpuverify/CUDA)')
    ap.add_argument('--baseline', nargs='?', const=DEFAULT_BASELINE, metavar='FILE',
                    help='compare with a baseline (default file tests/conformance/baseline.json)')
    ap.add_argument('--update-baseline', action='store_true',
                    help='write the baseline (to --baseline FILE or tests/conformance/baseline.json)')
    ap.add_argument('-j', '--jobs', type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument('-k', '--filter', action='append', default=[], metavar='SUBSTRING',
                    help='only kernels whose path contains SUBSTRING (repeatable)')
    ap.add_argument('--timeout', type=float, default=TIMEOUT_S,
                    help='seconds per kernel (default %d)' % TIMEOUT_S)
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='print the command and stderr of every disagreement')
    ap.add_argument('--own-flags', action='store_true',
                    help="pass no launch or -D options: ksynth reads each kernel's GPUVerify "
                         "flag comment itself (the results must not change)")
    opts = ap.parse_args(argv)

    suite = os.path.normpath(os.path.abspath(opts.suite))
    if not os.path.isdir(suite):
        print('run_conformance: no suite folder %s' % suite, file=sys.stderr)
        return 2
    ksynth = os.path.abspath(opts.ksynth) if os.sep in opts.ksynth else opts.ksynth
    if os.sep in opts.ksynth and not os.access(ksynth, os.X_OK):
        print('run_conformance: %s is not an executable (build ksynth or pass --ksynth)' % ksynth,
              file=sys.stderr)
        return 2
    if opts.jobs < 1:
        print('run_conformance: -j needs a positive number', file=sys.stderr)
        return 2

    kernels = [p for p in find_kernels(suite)
               if not opts.filter or any(s in os.path.relpath(p, suite) for s in opts.filter)]
    if not kernels:
        print('run_conformance: no kernel.cu under %s' % suite, file=sys.stderr)
        return 2
    headers = {p: parse_kernel_header(p) for p in kernels}

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        futs = {pool.submit(run_ksynth, ksynth, p, [] if opts.own_flags else headers[p][2], opts.timeout): p
                for p in kernels}
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] = fut.result()

    rows, current = [], {}
    headers_by_rel = {}
    counts = {}
    for p in kernels:
        rel = os.path.relpath(p, suite)
        expectation, line1, args, ignored, problem = headers[p]
        res = results[p]
        cat = classify(expectation, res, p) if expectation else "error"
        counts.setdefault(expectation or 'unrecognised', {}).setdefault(cat, 0)
        counts[expectation or 'unrecognised'][cat] += 1
        note = problem or res['problem'] or ''
        if ignored:
            note = (note + '; ' if note else '') + 'ignored: ' + ' '.join(ignored)
        rows.append({'rel': rel, 'expect': DISPLAY.get(expectation, line1), 'verdict': res['verdict'],
                     'cat': cat, 'time': res['time_s'], 'note': note, 'res': res,
                     'args': args})
        current[rel] = {'verdict': res['verdict'], 'category': cat}
        headers_by_rel[rel] = expectation

    w0 = max(len(r['rel']) for r in rows + [{'rel': 'kernel'}])
    w1 = max(len(r['expect']) for r in rows + [{'expect': 'expected'}])
    w2 = max(len(r['verdict']) for r in rows + [{'verdict': 'ksynth'}])
    fmt = '%-*s  %-*s  %-*s  %-10s %7s  %s'
    print(fmt % (w0, 'kernel', w1, 'expected', w2, 'ksynth', 'class', 'time', 'notes'))
    for r in rows:
        cat = r['cat'].upper() if r['cat'] in ('soundness', 'disagree', 'differs', 'error') else r['cat']
        print(fmt % (w0, r['rel'], w1, r['expect'], w2, r['verdict'], cat,
                     '%.2fs' % r['time'], r['note']))

    sound = [r for r in rows if r['cat'] == 'soundness']
    disagree = [r for r in rows if r['cat'] in ('disagree', 'differs')]
    if disagree:
        print('\ndisagreements (ksynth vs GPUVerify expectation):')
        for r in disagree:
            print('  %s: expected %s, ksynth %s%s' % (r['rel'], r['expect'], r['verdict'],
                                                     (' (' + r['res']['reason'] + ')')
                                                     if r['res']['reason'] else ''))
            if opts.verbose:
                print('    command: ' + ' '.join(shlex.quote(c) for c in r['res']['cmd']))
                for line in r['res']['stderr'].strip().splitlines()[-10:]:
                    print('    | ' + line)
    if sound:
        bar = '!' * 78
        print('\n' + bar)
        print('!!! SOUNDNESS: ksynth PROVED %d kernel(s) that GPUVerify expects to fail:' % len(sound))
        for r in sound:
            print('!!!   %s' % r['rel'])
            print('!!!     command: ' + ' '.join(shlex.quote(c) for c in r['res']['cmd']))
        print(bar)

    failed = bool(sound)
    if opts.update_baseline:
        path = opts.baseline or DEFAULT_BASELINE
        old = {}
        if os.path.exists(path):
            try:
                old = load_baseline(path)
            except (OSError, ValueError) as e:
                print('run_conformance: cannot read old baseline %s: %s' % (path, e), file=sys.stderr)
                return 2
        new = {} if not opts.filter else dict(old)
        for rel, entry in current.items():
            prev = old.get(rel) or {}
            entry = dict(entry, reason=prev.get('reason', ''))
            if prev.get('failure'):
                entry['failure'] = prev['failure']
            if prev and prev.get('verdict') != entry['verdict'] and entry['reason']:
                print('note: %s changed %s -> %s; check its reason: %s' % (
                    rel, prev.get('verdict'), entry['verdict'], entry['reason']))
            new[rel] = entry
        write_baseline(path, new)
        print('\nbaseline written: %s (%d kernels)' % (path, len(new)))
    elif opts.baseline:
        try:
            baseline = load_baseline(opts.baseline)
        except (OSError, ValueError) as e:
            print('run_conformance: cannot read baseline %s: %s' % (opts.baseline, e), file=sys.stderr)
            return 2
        if opts.filter:
            baseline = {k: v for k, v in baseline.items() if any(s in k for s in opts.filter)}
        diffs = []
        for rel in sorted(set(baseline) | set(current)):
            old, new = baseline.get(rel), current.get(rel)
            if old is None:
                diffs.append('%s: not in baseline (now %s, %s)' % (rel, new['verdict'], new['category']))
            elif new is None:
                diffs.append('%s: in baseline (%s) but not run' % (rel, old.get('verdict')))
            elif old.get('verdict') != new['verdict']:
                diffs.append('%s: %s -> %s (%s)%s' % (
                    rel, old.get('verdict'), new['verdict'], new['category'],
                    ('; baseline reason: ' + old['reason']) if old.get('reason') else ''))
        if diffs:
            print('\nverdicts that differ from the baseline %s:' % opts.baseline)
            for d in diffs:
                print('  ' + d)
            failed = True
        else:
            print('\nno difference from the baseline %s' % opts.baseline)

    n_pass = sum(counts.get('pass', {}).values())
    n_nav = sum(counts.get('not_all_verified', {}).values())
    n_err = sum(counts.get('bugle_error', {}).values()) + sum(counts.get('clang_error', {}).values())
    pass_proven = counts.get('pass', {}).get('agree', 0)
    nav_refuted = counts.get('not_all_verified', {}).get('agree', 0)
    err_agree = (counts.get('bugle_error', {}).get('agree', 0)
                 + counts.get('clang_error', {}).get('agree', 0))
    total_time = sum(r['time'] for r in rows)
    # A documented difference of semantics (a `reason` in the baseline, for the verdict the
    # baseline records) counts as agreement in the totals; the table still shows it.
    reasons = {}
    try:
        reasons = load_baseline(opts.baseline or DEFAULT_BASELINE)
    except (OSError, ValueError):
        pass
    def documented(expectation):
        return sum(1 for r in rows
                   if headers_by_rel[r['rel']] == expectation and r['cat'] != 'agree'
                   and reasons.get(r['rel'], {}).get('reason')
                   and reasons[r['rel']].get('verdict') == r['verdict'])
    pass_doc, nav_doc = documented('pass'), documented('not_all_verified')
    print('\nconformance: %d kernels, %.1fs of ksynth time' % (len(rows), total_time))
    print('  pass kernels proven:        %d/%d (%s); refuted %d, unknown %d' % (
        pass_proven, n_pass, pct(pass_proven, n_pass),
        counts.get('pass', {}).get('disagree', 0), counts.get('pass', {}).get('unknown', 0)))
    print('    + documented differences: %d/%d (%s)' % (
        pass_proven + pass_doc, n_pass, pct(pass_proven + pass_doc, n_pass)))
    print('  xfail kernels refuted:      %d/%d (%s); unknown %d' % (
        nav_refuted, n_nav, pct(nav_refuted, n_nav), counts.get('not_all_verified', {}).get('unknown', 0)))
    print('    + documented differences: %d/%d (%s)' % (
        nav_refuted + nav_doc, n_nav, pct(nav_refuted + nav_doc, n_nav)))
    # The target is about kernels GPUVerify rejects for a race or barrier divergence
    # (the baseline's `failure` field says which, read from each kernel's own comments).
    racy = [r for r in rows if headers_by_rel[r['rel']] == 'not_all_verified'
            and reasons.get(r['rel'], {}).get('failure') in ('race', 'barrier')]
    racy_ref = [r for r in racy if r['verdict'] == 'refuted']
    racy_doc = [r for r in racy if r['verdict'] != 'refuted' and reasons[r['rel']].get('reason')
                and reasons[r['rel']].get('verdict') == r['verdict']]
    print('  race/divergence xfails refuted: %d/%d (%s); + documented differences: %d/%d (%s)' % (
        len(racy_ref), len(racy), pct(len(racy_ref), len(racy)),
        len(racy_ref) + len(racy_doc), len(racy), pct(len(racy_ref) + len(racy_doc), len(racy))))
    print('  xfail kernels proven:       %d (must be 0)' % len(sound))
    print('  error kernels rejected:     %d/%d (BUGLE/CLANG_ERROR: exit 65 or unknown)' % (err_agree, n_err))
    if counts.get('unrecognised'):
        print('  unrecognised expectations:  %d' % sum(counts['unrecognised'].values()))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
