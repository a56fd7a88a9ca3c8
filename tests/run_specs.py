#!/usr/bin/env python3
"""Checks the spec library: every specs/NAME.smt must parse and be well formed
(`ksynth spec NAME.smt --json`: assumptions satisfiable, ranges non-empty, reads in bounds),
and every reference kernel specs/NAME.cu must reach its expected verdicts under
`ksynth verify NAME.cu --spec NAME.smt` (every check): "verdict" over the safety obligations
(race, barrier, bounds, overflow), "spec_verdict" over coverage and equivalence.

The expectation file (specs/expected.json) maps NAME to
    {"verdict": "proven" | "unknown" | "refuted", "args": [extra flags of its run], "note": "why",
     "also": ["proven"]}
"also" lists other verdicts that are accepted too: for obligations that end near the solver
timeout, where machine load decides between proven and unknown (never used for refuted).

No obligation of a reference kernel may be refuted. Every buggy twin specs/buggy/NAME.cu names
its spec and the obligation that must catch it on its first line, `// ksynth:spec SPEC expect=coverage|equivalence`, and must be refuted by an
obligation of that kind, with a witness that names the sizes and the element; and with
`--no-tests` (the proof alone, and the bounded fallback) no obligation the tests refuted may be
proven, nor bounded up to a size at which the tests refuted it.
Fast reference kernels specs/fast/FILE.cu (the idioms of fast kernels: vector access, warp
shuffles, ...) name their spec on their first line, `// ksynth:spec SPEC`; each is verified
with every check against it and must reach the verdict of its entry "fast/FILE".
Every spec needs a reference kernel and an entry; a verdict that differs from the entry
fails the run (a better verdict too: update the file, so every change is reviewed).
With --update the file is rewritten from this run (notes and args are kept).

Usage: tests/run_specs.py --ksynth PATH [--specs DIR] [--expect FILE] [--update] [-j N]
Exit status: 0 all as expected, 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAFETY_KINDS = {"race", "barrier", "bounds", "overflow"}


def status_of(obligations):
    """The verdict a set of obligations makes (refuted, else unknown, else bounded, else proven);
    none at all: unknown."""
    st = {o["status"] for o in obligations}
    if not st:
        return "unknown"
    for v in ("refuted", "unknown", "bounded"):
        if v in st:
            return v
    return "proven"


def run(cmd, timeout=300):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired:
        return 124, "", "timed out", time.time() - t0


EXIT_FOR = {"proven": 0, "refuted": 1, "unknown": 2, "bounded": 2}


def exit_matches(rc, verdict, problems):
    """Records a problem when ksynth's exit status is not the one its verdict has."""
    if rc != EXIT_FOR.get(verdict, -1):
        problems.append(f"exit {rc} does not match verdict {verdict}")


def check_one(ks, specs, name, entry):
    """Returns (name, problems, verdict, seconds, spec_info)."""
    problems = []
    smt = os.path.join(specs, name + ".smt")
    cu = os.path.join(specs, name + ".cu")
    rc, out, err, _ = run([ks, "spec", smt, "--json"])
    info = {}
    if rc != 0:
        problems.append(f"spec does not check (exit {rc}): {err.strip()}")
    else:
        info = json.loads(out)
        if info.get("verdict") != "ok" or not info.get("satisfiable"):
            problems.append(f"spec not well formed: {out}")
    if not os.path.exists(cu):
        problems.append("no reference kernel " + name + ".cu")
        return name, problems, (None, None), 0.0, info
    args = (entry or {}).get("args", [])
    # One run with every check, as users run it (the spec obligations rest on the safety ones,
    # which a run of coverage and equivalence alone would decide a second time).
    rc, out, err, secs = run([ks, "verify", cu, "--spec", smt, "--json", *args])
    verdict = None
    spec_verdict = None
    try:
        j = json.loads(out)
        exit_matches(rc, j["verdict"], problems)
        obl = [o for k in j["kernels"] for o in k["obligations"]]
        verdict = status_of([o for o in obl if o["kind"] in SAFETY_KINDS])
        kinds = {o["kind"] for o in obl}
        if verdict == "proven" and not SAFETY_KINDS <= kinds:
            problems.append(f"proven without all safety obligations: {sorted(kinds)}")
        bad = [o for o in obl if o["kind"] not in SAFETY_KINDS and o["status"] == "refuted"]
        if bad:
            problems.append("reference kernel refuted: " + "; ".join(f"{o['name']}: {o.get('reason', '')}" for o in bad))
        spec_verdict = status_of([o for o in obl if o["kind"] in ("coverage", "equivalence")])
        want = (entry or {}).get("spec_verdict")
        if want is not None and spec_verdict != want:
            problems.append(f"coverage/equivalence {spec_verdict}, expected {want}")
        if entry is not None and want is None:
            problems.append("no spec_verdict in the expectation file")
    except (ValueError, KeyError):
        problems.append(f"no JSON report (exit {rc}): {err.strip()[:500]}")
    if entry is None:
        problems.append("no entry in the expectation file")
    elif verdict != entry.get("verdict") and verdict not in entry.get("also", []):
        problems.append(f"verdict {verdict}, expected {entry.get('verdict')}")
    return name, problems, (verdict, spec_verdict), secs, info


def check_fast(ks, specs, path, entry):
    """Returns (key, problems, verdict, seconds)."""
    key = "fast/" + os.path.basename(path)[:-3]
    with open(path) as f:
        m = re.match(r"//\s*ksynth:spec\s+(\S+)", f.readline())
    if not m:
        return key, ["first line must be // ksynth:spec SPEC"], None, 0.0
    smt = os.path.join(specs, m.group(1) + ".smt")
    if not os.path.exists(smt):
        return key, [f"names a spec that does not exist: {m.group(1)}"], None, 0.0
    rc, out, err, secs = run([ks, "verify", path, "--spec", smt, "--json", *(entry or {}).get("args", [])])
    problems = []
    verdict = None
    try:
        j = json.loads(out)
        verdict = j.get("verdict")
        exit_matches(rc, verdict, problems)
        if verdict == "refuted":
            problems.append("fast reference kernel refuted")
    except (ValueError, KeyError):
        problems.append(f"no JSON report (exit {rc}): {err.strip()[:500]}")
    if entry is None:
        problems.append("no entry in the expectation file")
    elif verdict != entry.get("verdict"):
        problems.append(f"verdict {verdict}, expected {entry.get('verdict')}")
    return key, problems, verdict, secs


def check_twin(ks, specs, path):
    """A buggy twin: returns (path, problems, seconds)."""
    with open(path) as f:
        first = f.readline()
    m = re.match(r"// ksynth:spec ([\w/]+) expect=(coverage|equivalence)\s*$", first)
    if not m:
        return path, ["first line must be '// ksynth:spec SPEC expect=coverage|equivalence'"], 0.0
    spec, kind = m.group(1), m.group(2)
    # The library's spec, or one of specs/buggy/ (small specs written for a twin).
    smt = os.path.join(specs, spec + ".smt")
    if not os.path.exists(smt):
        smt = os.path.join(os.path.dirname(path), spec + ".smt")
    rc, out, err, secs = run([ks, "verify", path, "--spec", smt,
                              "--checks", "coverage,equivalence", "--json"])
    problems = []
    refuted_names = set()
    refuted_at = {}  # obligation -> the witness's sizes
    try:
        j = json.loads(out)
        obl = [o for k in j["kernels"] for o in k["obligations"]]
        hit = [o for o in obl if o["kind"] == kind and o["status"] == "refuted"]
        refuted_names = {o["name"] for o in obl if o["status"] == "refuted"}
        refuted_at = {o["name"]: (o.get("witness") or {}).get("sizes") for o in obl if o["status"] == "refuted"}
        if rc != 1 or j["verdict"] != "refuted" or not hit:
            problems.append(f"not refuted by {kind} (exit {rc}): " +
                            "; ".join(f"{o['name']} {o['status']}: {o.get('reason', '')[:200]}" for o in obl))
        else:
            w = hit[0].get("witness", {})
            if w.get("sizes") is None or not w.get("element") or "inputs" not in w:
                problems.append("witness lacks sizes, element or inputs: " + json.dumps(w)[:300])
    except (ValueError, KeyError):
        problems.append(f"no JSON report (exit {rc}): {err.strip()[:500]}")
    # The proof alone (no tests) must not prove what the tests refute.
    rc, out, err, secs2 = run([ks, "verify", path, "--spec", smt,
                               "--checks", "coverage,equivalence", "--no-tests", "--json"])
    secs += secs2
    try:
        j = json.loads(out)
        proven = [o["name"] for k in j["kernels"] for o in k["obligations"]
                  if o["name"] in refuted_names and o["status"] == "proven"]
        if proven or j["verdict"] == "proven":
            problems.append(f"SOUNDNESS: the proof alone proves {proven} of a buggy twin")
        # The bounded fallback runs there too: it must not claim the sizes a test refuted.
        for k in j["kernels"]:
            for o in k["obligations"]:
                sizes = refuted_at.get(o["name"])
                if o["status"] == "bounded" and sizes is not None and \
                        all(v <= o.get("bound", 0) for v in sizes.values()):
                    problems.append(f"SOUNDNESS: {o['name']} bounded up to {o.get('bound')} but refuted at {sizes}")
    except (ValueError, KeyError):
        problems.append(f"no JSON report with --no-tests (exit {rc}): {err.strip()[:500]}")
    return path, problems, secs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ap.add_argument("--specs", default=os.path.join(ROOT, "specs"))
    ap.add_argument("--expect", default=os.path.join(ROOT, "specs", "expected.json"))
    ap.add_argument("--update", action="store_true")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()

    expect = {}
    if os.path.exists(a.expect):
        with open(a.expect) as f:
            expect = json.load(f)
    names = sorted(f[:-4] for f in os.listdir(a.specs) if f.endswith(".smt"))
    kernels = sorted(f[:-3] for f in os.listdir(a.specs) if f.endswith(".cu"))
    failures = []
    for k in kernels:
        if k not in names:
            failures.append(f"{k}: reference kernel without a spec")
    for n in expect:
        if n not in names and not n.startswith("fast/"):
            failures.append(f"{n}: expectation for a spec that does not exist")

    fast_dir = os.path.join(a.specs, "fast")
    fasts = sorted(os.path.join(fast_dir, f) for f in os.listdir(fast_dir) if f.endswith(".cu")) \
        if os.path.isdir(fast_dir) else []
    for n in expect:
        if n.startswith("fast/") and not os.path.exists(os.path.join(a.specs, n + ".cu")):
            failures.append(f"{n}: expectation for a fast kernel that does not exist")
    twins_dir = os.path.join(a.specs, "buggy")
    twins = sorted(os.path.join(twins_dir, f) for f in os.listdir(twins_dir) if f.endswith(".cu")) \
        if os.path.isdir(twins_dir) else []

    # One pool for the specs, the fast kernels and the twins: no core waits at the end of a
    # part for its slowest item. Lines are printed as items finish.
    results = {}
    fast_verdicts = {}

    def spec_done(name, problems, verdicts, secs, _):
        results[name] = (verdicts, secs)
        status = "ok  " if not problems else "FAIL"
        print(f"{status} {name:20s} safety {str(verdicts[0]):8s} spec {str(verdicts[1]):8s} {secs:6.1f} s",
              flush=True)
        for p in problems:
            if not (a.update and (p.startswith("verdict ") or p.startswith("no entry")
                                  or p.startswith("coverage/equivalence ") or p.startswith("no spec_verdict"))):
                failures.append(f"{name}: {p}")

    def fast_done(key, problems, verdict, secs):
        fast_verdicts[key] = verdict
        status = "ok  " if not problems else "FAIL"
        print(f"{status} {key:32s} {str(verdict):8s} {secs:6.1f} s", flush=True)
        for p in problems:
            if not (a.update and (p.startswith("verdict ") or p.startswith("no entry"))):
                failures.append(f"{key}: {p}")

    def twin_done(path, problems, secs):
        status = "ok  " if not problems else "FAIL"
        print(f"{status} buggy/{os.path.basename(path):32s} {secs:6.1f} s", flush=True)
        failures.extend(f"buggy/{os.path.basename(path)}: {p}" for p in problems)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        futs = {}
        for n in names:
            futs[ex.submit(check_one, a.ksynth, a.specs, n, expect.get(n))] = spec_done
        for p in fasts:
            futs[ex.submit(check_fast, a.ksynth, a.specs, p, expect.get("fast/" + os.path.basename(p)[:-3]))] = fast_done
        for p in twins:
            futs[ex.submit(check_twin, a.ksynth, a.specs, p)] = twin_done
        for fut in concurrent.futures.as_completed(futs):
            futs[fut](*fut.result())
    print(f"{len(fasts)} fast reference kernels, proven: {sum(v == 'proven' for v in fast_verdicts.values())}")
    print(f"{len(twins)} buggy twins")

    times = sorted(s for _, s in results.values())
    proven = sorted(n for n, (v, _) in results.items() if v[1] == "proven")
    print(f"coverage and equivalence proven over symbolic sizes: {len(proven)}/{len(names)} ({', '.join(proven)})")
    bounded = sorted(n for n, (v, _) in results.items() if v[1] == "bounded")
    if bounded:
        print(f"bounded only (the fallback agrees up to its bound): {len(bounded)}/{len(names)} ({', '.join(bounded)})")
    if times:
        print(f"{len(names)} specs; verification (safety, then coverage/equivalence) median {times[len(times) // 2]:.1f} s, max {times[-1]:.1f} s")
    if a.update:
        new = {}
        for n in names:
            e = dict(expect.get(n, {}))
            e["verdict"] = results[n][0][0]
            e["spec_verdict"] = results[n][0][1]
            new[n] = e
        for key, verdict in fast_verdicts.items():
            e = dict(expect.get(key, {}))
            e["verdict"] = verdict
            new[key] = e
        with open(a.expect, "w") as f:
            json.dump(new, f, indent=2, sort_keys=True)
            f.write("\n")
        print("updated", a.expect)
    if failures:
        print("\nfailures:\n" + "\n".join(failures))
        return 1
    print("specs: all as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
