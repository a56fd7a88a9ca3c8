#!/usr/bin/env python3
"""Does the cost of verification grow with the problem sizes? Compares, per spec of the
library, the proof over symbolic sizes (one proof for every size) with the bounded fallback
(equiv/bounded.h: every size tuple with each dim <= n, each checked exactly on symbolic
inputs) at growing n.

For each spec it runs
  symbolic:   ksynth verify K.cu --spec S.smt --checks coverage,equivalence --no-tests --bound 0
  bounded n:  ksynth verify K.cu --spec S.smt --checks coverage,equivalence --no-tests
                  --bounded-only --bound n --bound-budget CAP
for n = 1, 2, 4, 8, ... until one run takes more than CAP seconds or n exceeds --max-bound,
and reports the time of the coverage/equivalence obligations (the report's time_ms, which
leaves out clang's parse and the safety proofs, the same for both), the verdict, and the
ratio bounded/symbolic. Symbolic time is the median of --repeat runs.
A benchmark, not a test: the exit status is 0 unless the tool cannot be run at all.

Usage: bench/scaling_bench.py [--ksynth PATH] [--specs DIR] [--only NAME,...] [--cap S]
                              [--max-bound N] [--repeat N] [--json FILE]
Python 3 standard library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = "vec_add,relu,row_sum,matmul,matmul_tiled,conv2d,block_sum,rmsnorm,softmax,scan_block"


def run(ks, cu, smt, extra, timeout):
    cmd = [ks, "verify", cu, "--spec", smt, "--checks", "coverage,equivalence", "--no-tests", "--json", *extra]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", None, None
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return "malformed", None, None
    obl = [o for k in j["kernels"] for o in k["obligations"] if o["kind"] == "equivalence"]
    ms = max((o.get("time_ms", 0) for o in obl), default=None)
    bound = min((o.get("bound", 0) for o in obl if o["status"] == "bounded"), default=None)
    return j["verdict"], ms, bound


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", default=os.path.join(REPO_ROOT, "build", "ksynth"))
    ap.add_argument("--specs", default=os.path.join(REPO_ROOT, "specs"))
    ap.add_argument("--only", default=DEFAULT)
    ap.add_argument("--cap", type=float, default=30.0, help="stop growing n after a run this long (s)")
    ap.add_argument("--max-bound", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args(argv)
    if not os.access(a.ksynth, os.X_OK):
        print(f"cannot run {a.ksynth}", file=sys.stderr)
        return 2
    rows = []
    for name in a.only.split(","):
        cu, smt = os.path.join(a.specs, name + ".cu"), os.path.join(a.specs, name + ".smt")
        sym = [run(a.ksynth, cu, smt, ["--bound", "0"], 600) for _ in range(a.repeat)]
        sym_ms = statistics.median(r[1] for r in sym if r[1] is not None) if any(r[1] is not None for r in sym) else None
        row = {"spec": name, "symbolic": {"verdict": sym[0][0], "ms": sym_ms}, "bounded": []}
        n = 1
        while n <= a.max_bound:
            verdict, ms, reached = run(a.ksynth, cu, smt, ["--bounded-only", "--bound", str(n), "--bound-budget",
                                                           str(a.cap)], a.cap * 4 + 60)
            row["bounded"].append({"n": n, "verdict": verdict, "ms": ms, "reached": reached})
            if ms is None or ms > a.cap * 1000 or reached != n:
                break
            n *= 2
        rows.append(row)
        sym_text = f"{sym_ms:8.0f} ms ({row['symbolic']['verdict']})" if sym_ms is not None else "       -"
        parts = []
        for b in row["bounded"]:
            if b["ms"] is None:
                parts.append(f"n={b['n']}: {b['verdict']}")
                continue
            ratio = f" x{b['ms'] / sym_ms:.1f}" if sym_ms else ""
            got = "" if b["reached"] == b["n"] else f" (reached {b['reached']})"
            parts.append(f"n={b['n']}: {b['ms']:.0f} ms{ratio}{got}")
        print(f"{name:14s} symbolic {sym_text} | bounded " + ", ".join(parts), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
