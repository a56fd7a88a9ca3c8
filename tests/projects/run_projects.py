#!/usr/bin/env python3
"""Whole files of real-project style (shared common.h, cuBLAS/NCCL/MPI host code, bf16
kernels, cooperative-group reductions, CUB, __launch_bounds__, template kernels launched from
host code): every one must parse, and every __global__ kernel in it gets the verdict its file
states, once with ksynth's own host-library declarations (--cuda-path none) and once with
the default headers (the CUDA toolkit's where one is installed).

Expectations, one line per kernel, anywhere in the file's leading comments:
    // expect-kernel: NAME proven
    // expect-kernel: NAME refuted KIND...        (each KIND has a refuted obligation)
    // expect-kernel: NAME unknown TEXT           (TEXT appears in a reason or diagnostic)
A kernel the file has but does not name, or names but does not have, fails the file.
Exit 0 when every file passes in every mode.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def expectations(path):
    exp = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith('//'):
                if line and not line.startswith('#'):
                    break
                continue
            body = line[2:].strip()
            if not body.startswith('expect-kernel:'):
                continue
            words = body[len('expect-kernel:'):].split()
            if len(words) < 2 or words[1] not in ('proven', 'refuted', 'unknown'):
                raise ValueError('%s: bad expect-kernel line: %s' % (path, line))
            if words[1] == 'refuted' and len(words) < 3:
                raise ValueError('%s: "refuted" needs the refuted kinds: %s' % (path, line))
            if words[1] == 'unknown' and len(words) < 3:
                raise ValueError('%s: "unknown" needs a text of the reason: %s' % (path, line))
            exp[words[0]] = (words[1], words[2:])
    if not exp:
        raise ValueError('%s: no expect-kernel lines' % path)
    return exp


def check_file(ksynth, path, mode_args):
    cmd = [ksynth, 'verify', path, '--json', '--timeout', '300'] + mode_args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    problems = []
    if p.returncode not in (0, 1, 2):
        return None, ['exit %d (%s)' % (p.returncode, p.stderr.strip().splitlines()[-3:])]
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        return None, ['no JSON report: %s' % e]
    exp = expectations(path)
    got = {k['name']: k for k in report['kernels']}
    for name in sorted(set(got) - set(exp)):
        problems.append('kernel %s has no expect-kernel line (verdict %s)' % (name, got[name]['verdict']))
    for name, (verdict, extra) in sorted(exp.items()):
        k = got.get(name)
        if k is None:
            problems.append('kernel %s expected, not in the report (kernels: %s)' % (name, ', '.join(sorted(got))))
            continue
        if k['verdict'] != verdict:
            problems.append('kernel %s: expected %s, got %s' % (name, verdict, k['verdict']))
            continue
        if verdict == 'refuted':
            refuted = {o['name'].split('.')[0] for o in k['obligations'] if o['status'] == 'refuted'}
            for kind in extra:
                if kind not in refuted:
                    problems.append('kernel %s: no refuted %s obligation (refuted: %s)' %
                                    (name, kind, ', '.join(sorted(refuted)) or 'none'))
        if verdict == 'unknown':
            text = ' '.join(extra)
            texts = [o.get('reason', '') for o in k['obligations']] + [d['message'] for d in k['diagnostics']]
            if not any(text in t for t in texts):
                problems.append('kernel %s: unknown, but no reason mentions "%s"' % (name, text))
    return report, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--ksynth', required=True)
    ap.add_argument('-j', '--jobs', type=int, default=2)
    args = ap.parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(HERE) for f in fs if f.endswith('.cu'))
    modes = [('ksynth headers', ['--cuda-path', 'none']), ('default headers', [])]
    failed = 0
    jobs = [(f, m) for f in files for m in modes]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda fm: check_file(args.ksynth, fm[0], fm[1][1]), jobs))
    for (f, (mode, _)), (report, problems) in zip(jobs, results):
        rel = os.path.relpath(f, HERE)
        toolkit = ''
        if report is not None:
            tk = report.get('headers', {}).get('cuda_toolkit')
            toolkit = ' [toolkit: %s]' % tk if tk else ' [ksynth declarations]'
            if mode == 'ksynth headers' and tk:
                problems.append('--cuda-path none still used the toolkit %s' % tk)
        kernels = len(report['kernels']) if report else 0
        status = 'ok' if not problems else 'FAIL'
        print('%-4s %-24s %-16s %d kernels, %.1f s%s' % (status, rel, mode, kernels,
                                                        (report or {}).get('time_ms', 0) / 1000, toolkit))
        for p in problems:
            print('       ' + p)
        failed += bool(problems)
    print('%d of %d file runs passed' % (len(jobs) - failed, len(jobs)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
