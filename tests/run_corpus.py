#!/usr/bin/env python3
"""Runs `ksynth verify` over the kernel corpus and checks each verdict against the
expectation written in the kernel's first lines.

A corpus kernel starts with comment lines:

    // expect: proven | unknown | refuted KIND...   (KIND: race barrier bounds overflow assert ...)
    // args: EXTRA ksynth verify FLAGS              (may be empty; -D NAME=VALUE allowed)
    // note: free text                              (optional, any number)
    // known-bug: REASON                            (optional: a tracked wrong answer)

A kernel passes when ksynth's verdict equals the expectation and, for `refuted K...`,
every listed kind K has an obligation with that kind and status "refuted". A known-bug
kernel that fails is reported as KNOWNBUG and does not fail the run; one that passes does
(remove the marker). Every `NAME_bad.cu` must have a `NAME_ok.cu` twin in the same folder.

With --baseline FILE every verdict that differs from the recorded one is printed and the
run fails; --update-baseline rewrites FILE from this run.

Usage: tests/run_corpus.py [--ksynth PATH] [--corpus DIR] [--baseline FILE]
                           [--update-baseline] [-j N] [-k SUBSTRING] [-v]
Exit status: 0 all passed (and no baseline difference), 1 otherwise, 2 bad usage.
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CORPUS = os.path.join(REPO_ROOT, 'tests', 'corpus')
DEFAULT_KSYNTH = os.path.join(REPO_ROOT, 'build', 'ksynth')
DEFAULT_BASELINE = os.path.join(DEFAULT_CORPUS, 'baseline.json')
TIMEOUT_S = 60

KINDS = ('race', 'barrier', 'bounds', 'overflow', 'assert', 'warp', 'align', 'coverage', 'equivalence')
VERDICTS = ('proven', 'refuted', 'unknown', 'bounded')
# Exit status ksynth must return for each verdict (DESIGN.md, CLI contract).
EXIT_FOR_VERDICT = {'proven': 0, 'refuted': 1, 'unknown': 2, 'bounded': 2}
# Pseudo-verdicts for runs that produced no verdict.
EXIT_NAMES = {64: 'usage-error', 65: 'malformed', 70: 'internal-error'}


class HeaderError(Exception):
    pass


def parse_header(path):
    """Returns dict(expect=str, kinds=[...], args=[...], notes=[...], known_bug=str|None)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().splitlines()
    hdr = {'expect': None, 'kinds': [], 'args': [], 'args_text': '', 'notes': [],
           'known_bug': None}
    seen_args = False
    for line in lines:
        s = line.strip()
        if not s:
            continue
        if not s.startswith('//'):
            break  # header ends at the first line of code
        body = s[2:].strip()
        key, sep, value = body.partition(':')
        key = key.strip().lower()
        value = value.strip()
        if not sep:
            continue
        if key == 'expect':
            if hdr['expect'] is not None:
                raise HeaderError('two "// expect:" lines')
            words = value.split()
            if not words or words[0].lower() not in ('proven', 'refuted', 'unknown'):
                raise HeaderError('"// expect:" must be proven, unknown or refuted KIND...')
            hdr['expect'] = words[0].lower()
            hdr['kinds'] = [w.lower() for w in words[1:]]
            if hdr['expect'] == 'refuted':
                if not hdr['kinds']:
                    raise HeaderError('"// expect: refuted" needs at least one kind')
                bad = [k for k in hdr['kinds'] if k not in KINDS]
                if bad:
                    raise HeaderError('unknown obligation kind(s): ' + ' '.join(bad))
            elif hdr['kinds']:
                raise HeaderError('only "refuted" takes kinds')
        elif key == 'args':
            if seen_args:
                raise HeaderError('two "// args:" lines')
            seen_args = True
            try:
                hdr['args'] = shlex.split(value)
            except ValueError as e:
                raise HeaderError('cannot split "// args:": %s' % e)
            hdr['args_text'] = value
        elif key == 'note':
            hdr['notes'].append(value)
        elif key == 'known-bug':
            hdr['known_bug'] = value or '(no reason given)'
    if hdr['expect'] is None:
        raise HeaderError('no "// expect:" line')
    return hdr


def parse_json_stdout(text):
    """ksynth --json prints one object; tolerate stray text around it."""
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


def obligations_of(report):
    """All obligations of a report, over every kernel (and a top-level list, if any)."""
    out = []
    for k in report.get('kernels') or []:
        if isinstance(k, dict):
            out.extend(o for o in (k.get('obligations') or []) if isinstance(o, dict))
    out.extend(o for o in (report.get('obligations') or []) if isinstance(o, dict))
    return out


def run_ksynth(ksynth, path, args, timeout):
    """Runs `ksynth verify PATH ARGS --json` and returns a result dict:
    verdict (proven/refuted/unknown/bounded, or a pseudo-verdict: timeout, malformed,
    usage-error, internal-error, crash, no-json), refuted_kinds, exit, time_s, problem,
    stderr, report."""
    cmd = [ksynth, 'verify', path] + list(args) + ['--json']
    res = {'cmd': cmd, 'verdict': None, 'refuted_kinds': [], 'exit': None, 'time_s': 0.0,
           'problem': None, 'stderr': '', 'report': None}
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        res['time_s'] = time.monotonic() - t0
        res['verdict'] = 'timeout'
        res['problem'] = 'timed out after %gs' % timeout
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
    report = parse_json_stdout(p.stdout.decode('utf-8', 'replace'))
    res['report'] = report
    if p.returncode < 0:
        res['verdict'] = 'crash'
        res['problem'] = 'killed by signal %d' % -p.returncode
        return res
    if report is None or not isinstance(report.get('verdict'), str):
        if p.returncode in EXIT_NAMES:
            res['verdict'] = EXIT_NAMES[p.returncode]
        else:
            res['verdict'] = 'no-json'
            res['problem'] = 'exit %d without a JSON verdict on stdout' % p.returncode
        return res
    verdict = report['verdict'].strip().lower()
    res['verdict'] = verdict
    res['refuted_kinds'] = sorted({str(o.get('kind', '')).lower()
                                   for o in obligations_of(report)
                                   if str(o.get('status', '')).lower() == 'refuted'})
    if verdict not in VERDICTS:
        res['problem'] = 'unknown verdict "%s"' % report['verdict']
    elif EXIT_FOR_VERDICT[verdict] != p.returncode:
        res['problem'] = 'exit %d does not match verdict %s (expected exit %d)' % (
            p.returncode, verdict, EXIT_FOR_VERDICT[verdict])
    elif verdict == 'refuted' and not res['refuted_kinds']:
        res['problem'] = 'verdict refuted but no obligation is refuted'
    return res


def describe(verdict, kinds):
    return verdict + (' ' + ','.join(kinds) if verdict == 'refuted' and kinds else '')


def judge(hdr, res):
    """Returns (passed, reason) for one kernel, ignoring the known-bug marker."""
    if res['problem']:
        return False, res['problem']
    if res['verdict'] != hdr['expect']:
        return False, 'expected %s, got %s' % (hdr['expect'], res['verdict'])
    if hdr['expect'] == 'refuted':
        missing = [k for k in hdr['kinds'] if k not in res['refuted_kinds']]
        if missing:
            return False, 'no refuted obligation of kind ' + ', '.join(missing)
    return True, ''


def find_kernels(corpus):
    found = []
    for root, dirs, files in os.walk(corpus):
        dirs.sort()
        for name in sorted(files):
            if name.endswith('.cu'):
                found.append(os.path.join(root, name))
    return found


def lint_corpus(corpus, paths, headers):
    """Corpus-shape problems: a _bad without its _ok twin, twins expecting the wrong thing."""
    problems = []
    present = set(paths)
    for p in paths:
        rel = os.path.relpath(p, corpus)
        if p.endswith('_bad.cu'):
            twin = p[:-len('_bad.cu')] + '_ok.cu'
            if twin not in present:
                problems.append((rel, 'no safe twin %s' % os.path.relpath(twin, corpus)))
            h = headers.get(p)
            if isinstance(h, dict) and h['expect'] != 'refuted':
                problems.append((rel, 'a _bad kernel must expect "refuted KIND..."'))
        elif p.endswith('_ok.cu'):
            h = headers.get(p)
            if isinstance(h, dict) and h['expect'] != 'proven':
                problems.append((rel, 'an _ok kernel must expect "proven"'))
    return problems


def load_baseline(path):
    with open(path, encoding='utf-8') as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError('baseline must be a JSON object')
    return data


def baseline_entry(res):
    return {'verdict': res['verdict'], 'kinds': res['refuted_kinds']}


def write_baseline(path, entries):
    """One kernel per line, sorted, so a verdict change is a one-line diff."""
    lines = ['  %s: %s' % (json.dumps(rel), json.dumps(entries[rel], sort_keys=True))
             for rel in sorted(entries)]
    with open(path, 'w', encoding='utf-8') as f:
        f.write('{\n' + ',\n'.join(lines) + '\n}\n')


def compare_baseline(baseline, current):
    """current: rel -> entry. Returns a list of difference lines."""
    diffs = []
    for rel in sorted(set(baseline) | set(current)):
        old, new = baseline.get(rel), current.get(rel)
        if old is None:
            diffs.append('%s: new kernel, not in baseline (now %s)' % (
                rel, describe(new['verdict'], new['kinds'])))
        elif new is None:
            diffs.append('%s: in baseline (%s) but not run' % (
                rel, describe(old.get('verdict', '?'), old.get('kinds', []))))
        elif (old.get('verdict') != new['verdict']
              or sorted(old.get('kinds', [])) != new['kinds']):
            diffs.append('%s: %s -> %s' % (rel, describe(old.get('verdict', '?'),
                                                         sorted(old.get('kinds', []))),
                                           describe(new['verdict'], new['kinds'])))
    return diffs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ksynth', default=DEFAULT_KSYNTH,
                    help='ksynth executable (default: build/ksynth)')
    ap.add_argument('--corpus', default=DEFAULT_CORPUS, help='corpus folder (default: tests/corpus)')
    ap.add_argument('--baseline', metavar='FILE',
                    help='JSON map file -> {verdict, kinds}; differences fail the run')
    ap.add_argument('--update-baseline', action='store_true',
                    help='write the baseline (to --baseline FILE, default tests/corpus/baseline.json)')
    ap.add_argument('-j', '--jobs', type=int, default=min(8, os.cpu_count() or 1),
                    help='kernels verified in parallel')
    ap.add_argument('-k', '--filter', action='append', default=[], metavar='SUBSTRING',
                    help='only kernels whose path contains SUBSTRING (repeatable)')
    ap.add_argument('--timeout', type=float, default=TIMEOUT_S,
                    help='seconds per kernel (default %d)' % TIMEOUT_S)
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='print ksynth stderr for failing kernels')
    opts = ap.parse_args(argv)

    corpus = os.path.abspath(opts.corpus)
    if not os.path.isdir(corpus):
        print('run_corpus: no corpus folder %s' % corpus, file=sys.stderr)
        return 2
    ksynth = os.path.abspath(opts.ksynth) if os.sep in opts.ksynth else opts.ksynth
    if os.sep in opts.ksynth and not os.access(ksynth, os.X_OK):
        print('run_corpus: %s is not an executable (build ksynth or pass --ksynth)' % ksynth,
              file=sys.stderr)
        return 2
    if opts.jobs < 1:
        print('run_corpus: -j needs a positive number', file=sys.stderr)
        return 2

    all_paths = find_kernels(corpus)
    if not all_paths:
        print('run_corpus: no .cu files under %s' % corpus, file=sys.stderr)
        return 2
    headers = {}
    for p in all_paths:
        try:
            headers[p] = parse_header(p)
        except (HeaderError, OSError) as e:
            headers[p] = str(e)
    lint = lint_corpus(corpus, all_paths, headers)

    paths = [p for p in all_paths
             if not opts.filter or any(s in os.path.relpath(p, corpus) for s in opts.filter)]
    runnable = [p for p in paths if isinstance(headers[p], dict)]

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        futs = {pool.submit(run_ksynth, ksynth, p, headers[p]['args'], opts.timeout): p
                for p in runnable}
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] = fut.result()

    rows, failures, knownbugs, passed = [], [], [], 0
    current = {}
    for p in paths:
        rel = os.path.relpath(p, corpus)
        hdr = headers[p]
        if not isinstance(hdr, dict):
            rows.append((rel, '-', '-', '', 'FAIL'))
            failures.append((rel, 'bad header: ' + hdr, None))
            continue
        res = results[p]
        current[rel] = baseline_entry(res)
        expected = describe(hdr['expect'], hdr['kinds'])
        got = describe(res['verdict'], res['refuted_kinds'])
        ok, why = judge(hdr, res)
        if hdr['known_bug']:
            if ok:
                status = 'FAIL'
                failures.append((rel, 'known-bug kernel now passes: remove the '
                                      '"// known-bug:" marker (%s)' % hdr['known_bug'], res))
            else:
                status = 'KNOWNBUG'
                knownbugs.append((rel, hdr['known_bug'], why))
        elif ok:
            status = 'ok'
            passed += 1
        else:
            status = 'FAIL'
            failures.append((rel, why, res))
        rows.append((rel, expected, got, '%.2fs' % res['time_s'], status))

    w = [max([len(r[i]) for r in rows] + [len(h)])
         for i, h in enumerate(('kernel', 'expected', 'got', 'time'))]
    print('%-*s  %-*s  %-*s  %*s  %s' % (w[0], 'kernel', w[1], 'expected', w[2], 'got',
                                         w[3], 'time', 'status'))
    for r in rows:
        print('%-*s  %-*s  %-*s  %*s  %s' % (w[0], r[0], w[1], r[1], w[2], r[2], w[3], r[3], r[4]))

    if knownbugs:
        print('\nknown bugs (tracked wrong answers):')
        for rel, reason, why in knownbugs:
            print('  %s: %s [%s]' % (rel, reason, why))
    if failures:
        print('\nfailures:')
        for rel, why, res in failures:
            print('  %s: %s' % (rel, why))
            if res is not None and (opts.verbose or res['verdict'] in EXIT_NAMES.values()
                                    or res['verdict'] in ('crash', 'no-json')):
                print('    command: %s' % ' '.join(shlex.quote(c) for c in res['cmd']))
                for line in res['stderr'].strip().splitlines()[-15:]:
                    print('    | ' + line)
    if lint:
        print('\ncorpus problems:')
        for rel, why in lint:
            print('  %s: %s' % (rel, why))

    failed = bool(failures) or bool(lint)
    if opts.update_baseline:
        path = opts.baseline or DEFAULT_BASELINE
        old = {}
        if os.path.exists(path) and (opts.filter):
            old = load_baseline(path)  # a filtered run updates only its own entries
        old.update(current)
        write_baseline(path, old)
        print('\nbaseline written: %s (%d kernels)' % (path, len(old)))
    elif opts.baseline:
        try:
            baseline = load_baseline(opts.baseline)
        except (OSError, ValueError) as e:
            print('run_corpus: cannot read baseline %s: %s' % (opts.baseline, e), file=sys.stderr)
            return 2
        if opts.filter:
            baseline = {k: v for k, v in baseline.items()
                        if any(s in k for s in opts.filter)}
        diffs = compare_baseline(baseline, current)
        if diffs:
            print('\nverdicts that differ from the baseline %s:' % opts.baseline)
            for d in diffs:
                print('  ' + d)
            failed = True
        else:
            print('\nno difference from the baseline %s' % opts.baseline)

    print('\ncorpus: %d/%d passed' % (passed, len(paths))
          + (', %d known bugs' % len(knownbugs) if knownbugs else '')
          + (', %d failed' % len(failures) if failures else '')
          + (', %d corpus problems' % len(lint) if lint else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
