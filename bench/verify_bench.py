#!/usr/bin/env python3
"""Times `ksynth verify` over the kernel corpus, GPUVerify's CUDA suite and the spec library.

Each kernel is verified N times (--repeat, default 1) as a whole process, so the time
includes clang's parse; arguments are built exactly as tests/run_corpus.py and
tests/conformance/run_conformance.py build them. Prints every kernel's time (median of
its repeats, and the slowest repeat), then per suite the median and the maximum over
kernels and how many kernels took over 10 s. The `specs` suite verifies every reference
kernel of specs/ against its spec with every check (`--spec`: safety, then coverage and
equivalence: the tests at concrete sizes and the proof over symbolic sizes), as a user runs
it. A benchmark, not a test: the exit status is 0 unless the tool cannot be run at all.

Usage: bench/verify_bench.py [--ksynth PATH] [--corpus DIR] [--suite DIR] [-n N]
                             [--only corpus|conformance|specs] [-j N] [--timeout S] [--json FILE]
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLOW_S = 10.0
sys.dont_write_bytecode = True  # importing the runners must not litter tests/


def load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(REPO_ROOT, rel))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


corpus_mod = load('run_corpus', os.path.join('tests', 'run_corpus.py'))
conf_mod = load('run_conformance', os.path.join('tests', 'conformance', 'run_conformance.py'))


def corpus_jobs(corpus):
    """(name, runner) for every corpus kernel with a readable header."""
    jobs = []
    for p in corpus_mod.find_kernels(corpus):
        try:
            hdr = corpus_mod.parse_header(p)
        except (corpus_mod.HeaderError, OSError) as e:
            print('skipped %s: %s' % (os.path.relpath(p, corpus), e), file=sys.stderr)
            continue
        jobs.append((os.path.relpath(p, corpus), p, hdr['args']))
    return jobs


def conformance_jobs(suite):
    jobs = []
    for p in conf_mod.find_kernels(suite):
        args = conf_mod.parse_kernel_header(p)[2]
        jobs.append((os.path.relpath(p, suite), p, args))
    return jobs


def spec_jobs(specs):
    jobs = []
    for f in sorted(os.listdir(specs)):
        if f.endswith('.smt') and os.path.exists(os.path.join(specs, f[:-4] + '.cu')):
            jobs.append((f[:-4], os.path.join(specs, f[:-4] + '.cu'),
                         ['--spec', os.path.join(specs, f)]))
    return jobs


def run_spec(ksynth, path, args, timeout):
    """Like the other runners: dict(verdict, time_s)."""
    t0 = time.time()
    try:
        p = subprocess.run([ksynth, 'verify', path, *args, '--json'], capture_output=True, text=True,
                           timeout=timeout)
        try:
            verdict = json.loads(p.stdout).get('verdict', 'exit %d' % p.returncode)
        except ValueError:
            verdict = 'exit %d' % p.returncode
    except subprocess.TimeoutExpired:
        verdict = 'timeout'
    return {'verdict': verdict, 'time_s': time.time() - t0}


def bench_suite(title, jobs, run, repeat, workers, timeout):
    """Runs every job `repeat` times; returns a list of per-kernel records."""
    records = {name: {'kernel': name, 'times': [], 'verdicts': []} for name, _, _ in jobs}
    tasks = [(name, path, args) for _ in range(repeat) for name, path, args in jobs]
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futs = {pool.submit(run, path, args, timeout): name for name, path, args in tasks}
        for fut in concurrent.futures.as_completed(futs):
            res = fut.result()
            rec = records[futs[fut]]
            rec['times'].append(res['time_s'])
            rec['verdicts'].append(res['verdict'])
    out = []
    for name, _, _ in jobs:
        rec = records[name]
        rec['median_s'] = statistics.median(rec['times'])
        rec['max_s'] = max(rec['times'])
        vs = sorted(set(rec['verdicts']))
        rec['verdict'] = vs[0] if len(vs) == 1 else '/'.join(vs)
        out.append(rec)

    w = max([len(r['kernel']) for r in out] + [6])
    print('\n== %s (%d kernels, %d run%s each)' % (title, len(out), repeat, '' if repeat == 1 else 's'))
    print('%-*s  %9s  %9s  %s' % (w, 'kernel', 'median', 'max', 'verdict'))
    for r in out:
        flag = '  > %gs' % SLOW_S if r['median_s'] > SLOW_S else ''
        print('%-*s  %8.2fs  %8.2fs  %s%s' % (w, r['kernel'], r['median_s'], r['max_s'],
                                              r['verdict'], flag))
    return out


def summary(title, recs):
    if not recs:
        return {'suite': title, 'kernels': 0}
    med = [r['median_s'] for r in recs]
    slow = [r for r in recs if r['median_s'] > SLOW_S]
    s = {'suite': title, 'kernels': len(recs), 'median_s': statistics.median(med),
         'max_s': max(r['max_s'] for r in recs), 'total_s': sum(med),
         'over_10s': len(slow), 'timeouts': sum(1 for r in recs if 'timeout' in r['verdict'])}
    slowest = max(recs, key=lambda r: r['max_s'])
    print('%-12s %4d kernels  median %6.2fs  max %6.2fs (%s)  total %7.1fs  over %gs: %d%s' % (
        title, s['kernels'], s['median_s'], s['max_s'], slowest['kernel'], s['total_s'],
        SLOW_S, s['over_10s'], ('  timeouts: %d' % s['timeouts']) if s['timeouts'] else ''))
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ksynth', default=os.path.join(REPO_ROOT, 'build', 'ksynth'))
    ap.add_argument('--corpus', default=corpus_mod.DEFAULT_CORPUS)
    ap.add_argument('--suite', default=conf_mod.DEFAULT_SUITE)
    ap.add_argument('-n', '--repeat', type=int, default=1, help='runs per kernel (default 1)')
    ap.add_argument('--only', choices=('corpus', 'conformance', 'specs'))
    ap.add_argument('--specs', default=os.path.join(REPO_ROOT, 'specs'))
    ap.add_argument('-j', '--jobs', type=int, default=1,
                    help='parallel runs (default 1: parallel runs disturb the timings)')
    ap.add_argument('--timeout', type=float, default=120.0,
                    help='seconds per run before it is killed (default 120)')
    ap.add_argument('--json', metavar='FILE', help='also write the timings as JSON')
    opts = ap.parse_args(argv)
    if opts.repeat < 1 or opts.jobs < 1:
        print('verify_bench: -n and -j need positive numbers', file=sys.stderr)
        return 2
    ksynth = os.path.abspath(opts.ksynth) if os.sep in opts.ksynth else opts.ksynth
    if os.sep in opts.ksynth and not os.access(ksynth, os.X_OK):
        print('verify_bench: %s is not an executable' % ksynth, file=sys.stderr)
        return 2

    suites = []
    if opts.only in (None, 'corpus'):
        corpus = os.path.abspath(opts.corpus)
        if os.path.isdir(corpus):
            jobs = corpus_jobs(corpus)
            run = lambda p, a, t: corpus_mod.run_ksynth(ksynth, p, a, t)
            suites.append(('corpus', bench_suite('corpus ' + corpus, jobs, run, opts.repeat,
                                                 opts.jobs, opts.timeout)))
        else:
            print('verify_bench: no corpus at %s, skipped' % corpus, file=sys.stderr)
    if opts.only in (None, 'conformance'):
        suite = os.path.normpath(os.path.abspath(opts.suite))
        if os.path.isdir(suite):
            jobs = conformance_jobs(suite)
            run = lambda p, a, t: conf_mod.run_ksynth(ksynth, p, a, t)
            suites.append(('conformance', bench_suite('conformance ' + suite, jobs, run,
                                                      opts.repeat, opts.jobs, opts.timeout)))
        else:
            print('verify_bench: no conformance suite at %s, skipped' % suite, file=sys.stderr)
    if opts.only in (None, 'specs'):
        specs = os.path.abspath(opts.specs)
        if os.path.isdir(specs):
            run = lambda p, a, t: run_spec(ksynth, p, a, t)
            suites.append(('specs', bench_suite('specs ' + specs, spec_jobs(specs), run, opts.repeat,
                                                opts.jobs, opts.timeout)))
        else:
            print('verify_bench: no spec library at %s, skipped' % specs, file=sys.stderr)
    if not suites:
        return 2

    print('\n== summary (per-kernel wall time, whole ksynth process)')
    sums = [summary(title, recs) for title, recs in suites]
    if opts.json:
        with open(opts.json, 'w', encoding='utf-8') as f:
            json.dump({'ksynth': ksynth, 'repeat': opts.repeat, 'jobs': opts.jobs,
                       'summary': sums,
                       'kernels': {title: recs for title, recs in suites}}, f, indent=1)
            f.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
