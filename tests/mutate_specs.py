#!/usr/bin/env python3
"""Mutation test of the equivalence prover: every reference kernel whose coverage and
equivalence are proven (specs/expected.json, "spec_verdict": "proven") is mutated mechanically,
one change per mutant:

  rel      a relational operator flipped (< <=, > >=)
  const    an integer literal of the kernel body changed by +1
  index    a subscript shifted by +1
  swap     threadIdx.x <-> threadIdx.y, blockIdx.x <-> blockIdx.y (one occurrence)
  arith    a '+' in an assignment turned into '-'
  sync     one __syncthreads() dropped
  grid     an integer literal of the launch line's grid changed by -1 (shrinks or shifts the grid)

Each mutant is verified by the proof alone (`--no-tests`) and, unless that refuted it (with a
replayed counterexample and nothing left bounded), again as users run it (tests first). A mutant is killed when the proof alone does not prove it. A mutant the proof alone
proves must be equivalent: if the tests refute it, that is a soundness bug (the run fails);
otherwise it must be explained in tests/mutants_explained.json (key "SPEC:ID", value why it is
equivalent), else the run fails. Prints the kill rate.
The proof-alone run includes the bounded fallback (equiv/bounded.h) for what the proof leaves
open: an obligation it reports "bounded" up to n while a test refutes it at sizes all <= n is a
soundness bug too.

Usage: tests/mutate_specs.py --ksynth PATH [--specs DIR] [-j N] [--only NAME]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mutants(src):
    """Yields (id, description, mutated source)."""
    lines = src.split("\n")
    out = []

    def body_lines():
        for n, l in enumerate(lines):
            s = l.strip()
            if s.startswith("//") or s.startswith("#") or not s:
                continue
            yield n, l

    def emit(kind, n, old, new, line):
        text = "\n".join(lines[:n] + [line] + lines[n + 1:])
        out.append((f"{kind}@{n + 1}:{len([o for o in out if o[0].startswith(kind + '@' + str(n + 1) + ':')])}",
                    f"line {n + 1}: {old.strip()} -> {line.strip()}", text))

    for n, l in body_lines():
        for m in re.finditer(r"(?<![<>=!])(<=|>=|<|>)(?![<>=])", l):
            if "<<" in l[max(0, m.start() - 1):m.end() + 1] or ">>" in l[max(0, m.start() - 1):m.end() + 1]:
                continue
            op = m.group(1)
            rep = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[op]
            emit("rel", n, l, l[:m.start()] + rep + l[m.end():], l[:m.start()] + rep + l[m.end():])
        for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", l):
            v = int(m.group(1))
            nl = l[:m.start()] + str(v + 1) + l[m.end():]
            emit("const", n, l, nl, nl)
        for m in re.finditer(r"\[([^\[\]]+)\]", l):
            if "__shared__" in l:
                continue
            nl = l[:m.start()] + "[" + m.group(1) + " + 1]" + l[m.end():]
            emit("index", n, l, nl, nl)
        for a, b in (("threadIdx.x", "threadIdx.y"), ("threadIdx.y", "threadIdx.x"),
                     ("blockIdx.x", "blockIdx.y"), ("blockIdx.y", "blockIdx.x")):
            for m in re.finditer(re.escape(a), l):
                nl = l[:m.start()] + b + l[m.end():]
                emit("swap", n, l, nl, nl)
        if "=" in l and "for" not in l:
            for m in re.finditer(r"(?<![+=])\+(?![+=])", l):
                nl = l[:m.start()] + "-" + l[m.end():]
                emit("arith", n, l, nl, nl)
        if "__syncthreads();" in l:
            nl = l.replace("__syncthreads();", "", 1)
            emit("sync", n, l, nl, nl)
    for n, l in enumerate(lines):
        if "ksynth:launch" in l:
            g = re.search(r"grid=(\([^)]*(\([^)]*\)[^)]*)*\)|\S+)", l)
            if not g:
                continue
            for m in re.finditer(r"\d+", g.group(0)):
                v = int(m.group(0))
                if v <= 1:
                    continue
                start = g.start() + m.start()
                nl = l[:start] + str(v - 1) + l[start + len(m.group(0)):]
                emit("grid", n, l, nl, nl)
    return out


def verify(ks, cu, smt, extra):
    p = subprocess.run([ks, "verify", cu, "--spec", smt, "--json", *extra], capture_output=True, text=True,
                       timeout=600)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return "malformed", {}
    st = {o["name"]: o for k in j.get("kernels", []) for o in k.get("obligations", [])}
    return j.get("verdict", "malformed"), st


def run_one(ks, specs, name, mid, desc, text):
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, name + ".cu")
        with open(cu, "w") as f:
            f.write(text)
        smt = os.path.join(specs, name + ".smt")
        proof, pst = verify(ks, cu, smt, ["--no-tests"])
        # Refuted by the proof alone (a replayed counterexample) with nothing bounded: the
        # users' run could change no check below, so it is not made ("skipped").
        if proof == "refuted" and not any(o.get("status") == "bounded" for o in pst.values()):
            return name, mid, desc, proof, "skipped", pst, {}
        users, ust = verify(ks, cu, smt, [])
    return name, mid, desc, proof, users, pst, ust


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ap.add_argument("--specs", default=os.path.join(ROOT, "specs"))
    ap.add_argument("--explained", default=os.path.join(ROOT, "tests", "mutants_explained.json"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only")
    a = ap.parse_args()
    with open(os.path.join(a.specs, "expected.json")) as f:
        expect = json.load(f)
    explained = {}
    if os.path.exists(a.explained):
        with open(a.explained) as f:
            explained = json.load(f)
    names = sorted(n for n, e in expect.items() if e.get("spec_verdict") == "proven" and (not a.only or n == a.only))
    jobs = []
    for n in names:
        with open(os.path.join(a.specs, n + ".cu")) as f:
            src = f.read()
        for mid, desc, text in mutants(src):
            jobs.append((n, mid, desc, text))
    failures = []
    killed = refuted = refuted_by_proof = total = 0
    bounded_claims = bounded_refuted = 0
    survivors = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        for name, mid, desc, proof, users, pst, ust in ex.map(lambda j: run_one(a.ksynth, a.specs, *j), jobs):
            total += 1
            key = f"{name}:{mid}"
            if proof == "malformed" or users == "malformed":
                # Did not compile or bind: not a meaningful mutant.
                total -= 1
                continue
            if users == "refuted":
                refuted += 1
            elif users == "skipped":
                refuted_by_proof += 1
            # The bounded fallback (part of the proof-alone run): it must not claim a size
            # at which a test refuted the mutant.
            for oname, o in pst.items():
                w = ust.get(oname, {})
                sizes = (w.get("witness") or {}).get("sizes") if w.get("status") == "refuted" else None
                if o.get("status") == "bounded" and sizes is not None and \
                        all(v <= o.get("bound", 0) for v in sizes.values()):
                    failures.append(f"SOUNDNESS: {key} ({desc}) {oname} bounded up to {o.get('bound')} "
                                    f"but a test refutes it at {sizes}")
                if o.get("status") == "bounded":
                    bounded_claims += 1
                elif o.get("status") == "refuted" and "bounded check" in " ".join(o.get("notes", [])):
                    bounded_refuted += 1
            if proof != "proven":
                killed += 1
                continue
            if users == "refuted":
                failures.append(f"SOUNDNESS: {key} ({desc}) proven by the proof alone but refuted by a test: {ust}")
            elif key in explained:
                survivors.append(f"{key} ({desc}): equivalent: {explained[key]}")
            else:
                failures.append(f"{key} ({desc}) proven and not explained as equivalent "
                                f"(add it to {os.path.relpath(a.explained, ROOT)} if it is)")
    equivalent = len(survivors)
    nonequiv = total - equivalent
    print(f"{len(names)} proven kernels, {total} mutants: {killed} not proven by the proof alone "
          f"({refuted_by_proof} refuted by the proof alone, so not run with tests; {refuted} refuted by tests), "
          f"{equivalent} proven and explained as equivalent")
    print(f"bounded fallback (proof alone): {bounded_refuted} obligations refuted (replayed), "
          f"{bounded_claims} bounded; none at a size a test refutes")
    if nonequiv:
        print(f"kill rate over non-equivalent mutants: {killed}/{nonequiv} = {100.0 * killed / nonequiv:.1f}%")
    for s in survivors:
        print("  " + s)
    if failures:
        print("\nfailures:\n" + "\n".join(failures))
        return 1
    print("mutants: all killed or explained")
    return 0


if __name__ == "__main__":
    sys.exit(main())
