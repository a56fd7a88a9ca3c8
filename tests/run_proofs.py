#!/usr/bin/env python3
"""Re-checks the committed proof bundles of the spec library (proofs/NAME/, proofs/kernelbench/NAME/
for KernelBench's specs/kernelbench/NAME.smt, and proofs/fast/NAME/
for the fast reference kernels specs/fast/NAME.cu, written by
scripts/update-proofs.sh) as an auditor would: `ksynth check-proof proofs/NAME --kernel
specs/NAME.cu --spec specs/NAME.smt` with the cvc5 and the z3 executables (one run).

- Each query of a proven obligation is answered by one external solver: cvc5 (independent of
  the Z3 that ksynth links and that answered every query when the bundle was written), and z3
  for the queries cvc5 is listed as unable to answer (below). z3 is not asked again about the
  queries cvc5 re-checks: that was a repetition of the bundle's own solver on the same files
  and half the test's time (z3 is the slower of the two on the register-tiled matmuls:
  matmul_regtile 49 s against cvc5's 20 s). With --both every query goes to both solvers,
  as `ksynth check-proof` does by default (run it after a solver upgrade).

- Every spec of specs/ needs a bundle, and its kernel and spec must be the library's current
  files (a changed kernel or spec without new proofs fails here).
- cvc5 must re-check every proven obligation, and the exit status must match the recorded
  verdict (0 proven, 2 bounded or unknown: check-proof never upgrades them), except for
  queries listed in proofs/expected.json under "cvc5_unsolved" (NAME -> {query file: why}):
  cvc5 is not asked about them (`check-proof --skip cvc5:FILE`; waiting out its limit on each
  was 280 of the 340 s KernelBench's bundles took), and z3 must answer them unsat. With --probe-listed cvc5 is asked with a 5 s limit (LISTED_TIMEOUT)
  instead: it may answer timeout or unknown there (never sat), and a listed query that it now
  solves is reported, so the list stays true (run it after a cvc5 upgrade).

Usage: tests/run_proofs.py --ksynth PATH [--timeout S] [--only NAME] [--set library|kernelbench|all]
                           [--both] [--probe-listed] [-j N]
(library: specs/ and specs/fast/, the default; kernelbench: proofs/kernelbench/ only; ctest runs
both sets as two tests, `proofs` and `proofs_kernelbench`.)
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

# cvc5's limit on a listed query: it is known to answer nothing there within the full limit, and
# waiting it out cost 40 s per query. z3 keeps the full limit (some take it 5-10 s).
LISTED_TIMEOUT = 5

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spec_of(name):
    """The spec a bundle's kernel is verified against: NAME's own, or for a fast reference
    kernel fast/NAME the one its first line names (// ksynth:spec SPEC)."""
    if not name.startswith("fast/"):
        return name
    with open(os.path.join(ROOT, "specs", name + ".cu")) as f:
        m = re.match(r"//\s*ksynth:spec\s+(\S+)", f.readline())
    return m.group(1) if m else name


def proven_queries(bundle):
    """The query files (names in queries/) of the bundle's proven obligations."""
    with open(os.path.join(bundle, "proof.json")) as f:
        p = json.load(f)
    return sorted({os.path.basename(q.get("file", "")) for k in p.get("kernels", [])
                   for o in k.get("obligations", []) if o.get("status") == "proven"
                   for q in o.get("queries", [])})


def check_proof(ks, name, solver, timeout, listed=(), probe=False, jobs=None, z3_only=None):
    cmd = [ks, "check-proof", os.path.join(ROOT, "proofs", name), "--kernel",
           os.path.join(ROOT, "specs", name + ".cu"), "--spec", os.path.join(ROOT, "specs", spec_of(name) + ".smt"),
           "--solver", solver, "--timeout", str(timeout)]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    for f in listed:
        cmd += ["--timeout-for", f"cvc5:{f}={LISTED_TIMEOUT}"] if probe else ["--skip", f"cvc5:{f}"]
    if z3_only is not None:  # z3 asked only about these (cvc5 about the rest)
        for f in proven_queries(os.path.join(ROOT, "proofs", name)):
            if f not in z3_only:
                cmd += ["--skip", f"z3:{f}"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ap.add_argument("--timeout", type=float, default=40)  # cvc5 needs about 20 s for row_max_block.spec.227 on the 2-core machine
    ap.add_argument("--set", choices=["library", "kernelbench", "all"], default="library")
    ap.add_argument("--only")
    ap.add_argument("-j", type=int, default=2, help="bundles re-checked at once (each one solver process at a time)")
    ap.add_argument("--both", action="store_true",
                    help="ask z3 about every query too, not only about those cvc5 is listed as not answering")
    ap.add_argument("--probe-listed", action="store_true",
                    help="ask cvc5 about its listed queries too (5 s each): does it solve one now?")
    a = ap.parse_args()
    with open(os.path.join(ROOT, "proofs", "expected.json")) as f:
        expected = json.load(f)
    unsolved = expected.get("cvc5_unsolved", {})
    names = []
    if a.set != "kernelbench":
        names += sorted(os.path.splitext(f)[0] for f in os.listdir(os.path.join(ROOT, "specs")) if f.endswith(".smt"))
        fast = os.path.join(ROOT, "specs", "fast")
        if os.path.isdir(fast):
            names += sorted("fast/" + os.path.splitext(f)[0] for f in os.listdir(fast) if f.endswith(".cu"))
    kb = os.path.join(ROOT, "specs", "kernelbench")
    if a.set != "library" and os.path.isdir(kb):
        names += sorted("kernelbench/" + os.path.splitext(f)[0] for f in os.listdir(kb) if f.endswith(".smt"))
    if a.only:
        names = [a.only]

    def one(name):
        """Re-checks one bundle: returns (its line, its failures)."""
        failures = []
        d = os.path.join(ROOT, "proofs", name)
        if not os.path.exists(os.path.join(d, "proof.json")):
            failures.append(f"{name}: no bundle proofs/{name} (run scripts/update-proofs.sh)")
            return f"FAIL {name}", failures
        with open(os.path.join(d, "proof.json")) as f:
            verdict = json.load(f).get("verdict")
        want_rc = 0 if verdict == "proven" else 2
        # Both solvers in one run, one solver process at a time; -j bundles at once keep the
        # cores busy (one check-proof per core, so no bundle waits on its slowest query with a
        # core idle, and no query's limit is shared with another's).
        t0 = time.time()
        rc, out = check_proof(a.ksynth, name, "all", a.timeout, unsolved.get(name, {}), a.probe_listed, jobs=1,
                              z3_only=None if a.both or a.probe_listed else set(unsolved.get(name, {})))
        took = time.time() - t0
        z3_errors = re.findall(r"z3 answers '([^']*)' on (\S+) ", out)
        z3_ok = not z3_errors
        if not z3_ok:
            failures.append(f"{name}: z3: exit {rc}, expected {want_rc} (verdict {verdict}):\n{out[-1500:]}")
        listed = unsolved.get(name, {})
        errors = re.findall(r"cvc5 answers '([^']*)' on (\S+) ", out)
        others = [l for l in out.splitlines() if l.startswith("check-proof: error:") and " answers '" not in l]
        bad = [(ans, f) for ans, f in errors if os.path.basename(f) not in listed or ans == "sat"]
        solved_now = [f for f in listed if f not in {os.path.basename(g) for _, g in errors}] if a.probe_listed else []
        if not a.probe_listed:
            # Not asked: each listed file must exist in the bundle (a stale entry is an error).
            for f in listed:
                if not os.path.exists(os.path.join(d, "queries", f)) and not os.path.exists(os.path.join(d, f)):
                    failures.append(f"{name}: listed query {f} is not in the bundle: remove it from proofs/expected.json")
        cvc5_ok = not bad and not others and (rc == want_rc or (z3_ok and errors and rc == 1))
        if not cvc5_ok:
            failures.append(f"{name}: cvc5: exit {rc}, unexpected {bad or others}:\n{out[-1500:]}")
        if solved_now:
            failures.append(f"{name}: cvc5 now solves {solved_now}: remove them from proofs/expected.json")
        note = (f" (cvc5 cannot solve {len(listed)} listed)" if a.probe_listed else
                f" (cvc5 not asked about {len(listed)} listed)") if listed else ""
        return (f"{'ok  ' if z3_ok and cvc5_ok and not solved_now else 'FAIL'} {name:40s} {verdict}{note} ({took:.0f} s)",
                failures)

    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        for line, fails in ex.map(one, names):
            print(line, flush=True)
            failures += fails
    if failures:
        print("\n" + "\n".join(failures))
        return 1
    print(f"proofs: {len(names)} bundles re-checked, every query by " +
          ("z3 and cvc5" if a.both or a.probe_listed else "cvc5 (z3 where cvc5 is listed as unable)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
