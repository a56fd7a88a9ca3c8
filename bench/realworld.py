#!/usr/bin/env python3
"""`ksynth verify` over a folder of real-world CUDA files (kernels as their projects wrote
them: no annotations, launches in host code), with GPUVerify's default semantics
(`--checks race,barrier,assert`) unless --checks says otherwise. Per kernel: the verdict, and
for an unknown one the reasons of its unknown obligations, normalised into classes (names
and numbers replaced) and counted, biggest first. A file that does not parse counts once,
classed by its first error.

Usage: bench/realworld.py DIR [--ksynth build/ksynth] [-j N] [--timeout S] [--checks LIST]
                          [--json OUT.jsonl] [--top N] [--args 'VERIFY FLAGS']
Prints a markdown report. The files are not part of the repository (they are other
projects' code); a manifest (repo, path, commit per file) says where they came from."""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def normalise(reason):
    """A reason's class: quoted names, numbers and source text replaced by placeholders."""
    r = reason.strip()
    r = re.sub(r"kernel uses an unsupported construct \((.*)\)$", r"unsupported: \1", r)
    r = re.sub(r"'[^']*'", "'…'", r)
    r = re.sub(r"\b\d+\b", "N", r)
    r = re.sub(r"\(…\)|\([^()]*\)$", "", r).strip()
    return r[:160]


def parse_error(stderr):
    for line in stderr.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            e = m.group(1)
            if "file not found" in e:
                return "does not parse: #include " + re.sub(r".*'([^']*)' file not found.*", r"\1", e) + " not found"
            return "does not parse: " + normalise(e)
    return "does not parse"


# Include folders a project's own build passes to every file (its Makefiles' -I), relative to
# the project's folder (the first folder under DIR: owner__name).
PROJECT_INCLUDES = {
    "NVIDIA__cuda-samples": ["Common"],  # Samples/*/*/Makefile: INCLUDES := -I../../../Common
}


def project_includes(root, path):
    rel = os.path.relpath(path, root).split(os.sep)
    out = []
    for inc in PROJECT_INCLUDES.get(rel[0], []):
        d = os.path.join(root, rel[0], inc)
        if os.path.isdir(d):
            out += ["-I", d]
    return out


def run(ksynth, path, checks, timeout, extra):
    cmd = [ksynth, "verify", path, "--json", "--checks", checks, "--timeout", str(timeout)] + extra
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="replace", timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return {"file": path, "exit": None, "secs": time.monotonic() - t0, "kernels": [],
                "file_class": "ksynth ran past --timeout + 30 s"}
    secs = time.monotonic() - t0
    out = {"file": path, "exit": p.returncode, "secs": secs, "kernels": []}
    try:
        j = json.loads(p.stdout)
    except ValueError:
        j = None
    if j and j.get("timed_out") and "kernels" not in j:
        out["file_class"] = "the whole file's --timeout passed before any verdict"
        return out
    if p.returncode == 65 or not j or "kernels" not in j:
        out["file_class"] = parse_error(p.stderr) if p.returncode == 65 else \
            "exit %s: %s" % (p.returncode, normalise((p.stderr.strip().splitlines() or ["no output"])[-1]))
        return out
    for k in j["kernels"]:
        reasons = sorted({normalise(o.get("reason", "")) for o in k.get("obligations", [])
                          if o.get("status") == "unknown"})
        out["kernels"].append({"name": k.get("name"), "verdict": k.get("verdict"), "reasons": reasons,
                               "refuted": sorted({o["kind"] for o in k.get("obligations", [])
                                                  if o.get("status") == "refuted"})})
    if not j["kernels"]:
        out["file_class"] = "no kernel: " + normalise(j.get("error", "") or p.stderr.strip()[-200:])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--ksynth", default=os.path.join(ROOT, "build", "ksynth"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--checks", default="race,barrier,assert")
    ap.add_argument("--json")
    ap.add_argument("--args", default="", help="more `ksynth verify` flags for every file, e.g. "
                    "'--block ,1,1 --grid ,1,1' (1-D launches of any size)")
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    files = []
    for d, _, names in os.walk(a.dir):
        for n in sorted(names):
            p = os.path.join(d, n)
            if n.endswith(".cu") and "__global__" in open(p, errors="replace").read():
                files.append(p)
    files.sort()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda f: run(a.ksynth, f, a.checks, a.timeout,
                                              a.args.split() + project_includes(a.dir, f)), files))
    if a.json:
        with open(a.json, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    verdicts = collections.Counter()
    classes = collections.Counter()
    example = {}
    over = 0
    for r in results:
        if r["secs"] > a.timeout + 2:
            over += 1
        if "file_class" in r:
            verdicts["file not verified"] += 1
            classes[r["file_class"]] += 1
            example.setdefault(r["file_class"], os.path.relpath(r["file"], a.dir))
            continue
        for k in r["kernels"]:
            verdicts[k["verdict"]] += 1
            if k["verdict"] == "unknown":
                for c in k["reasons"] or ["(no reason given)"]:
                    classes[c] += 1
                    example.setdefault(c, os.path.relpath(r["file"], a.dir) + " " + str(k["name"]))
    nk = sum(v for k, v in verdicts.items() if k != "file not verified")
    print("# Real-world CUDA files: %d files, %d kernels (checks: %s, --timeout %g%s)\n"
          % (len(files), nk, a.checks, a.timeout, (", " + a.args) if a.args else ""))
    print("| verdict | count | share of kernels |\n|---|---|---|")
    for v in ("proven", "refuted", "bounded", "unknown"):
        print("| %s | %d | %.0f%% |" % (v, verdicts[v], 100.0 * verdicts[v] / max(nk, 1)))
    print("| file not verified (does not parse, no kernel) | %d files | |" % verdicts["file not verified"])
    print("\nRuns past --timeout + 2 s: %d. Median seconds per file: %.2f.\n"
          % (over, sorted(r["secs"] for r in results)[len(results) // 2] if results else 0))
    print("## Why: unknown kernels by reason (a kernel counts once per reason), unverified files by error\n")
    print("| count | reason | example |\n|---|---|---|")
    for c, n in classes.most_common(a.top):
        print("| %d | %s | %s |" % (n, c.replace("|", "\\|"), example[c]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
