#!/usr/bin/env python3
"""A labelled race suite (Faial's examples/drf: `drf-*.cu` race free, `*racy*.cu` racy), as
bench/results/session-2026-12-04/realworld_README.md describes it: `ksynth verify FILE
--checks race,barrier --timeout 20`, with the file's own GPUVerify flag line where it has one,
else one block of any 1-D size (`--block ,1,1 --grid 1,1,1`). Prints how many verdicts agree
with the labels, then each disagreement. The files are not part of the repository.

Usage: bench/drf_suite.py DIR [--ksynth build/ksynth]"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--ksynth", default=os.path.join(ROOT, "build", "ksynth"))
    a = ap.parse_args()
    res = []
    for n in sorted(os.listdir(a.dir)):
        if not n.endswith(".cu"):
            continue
        want = "proven" if n.startswith("drf-") else "refuted" if "racy" in n else None
        if want is None:
            continue
        path = os.path.join(a.dir, n)
        text = open(path, errors="replace").read()
        args = [a.ksynth, "verify", path, "--checks", "race,barrier", "--json", "--timeout", "20"]
        if not re.search(r"--blockDim=|--gridDim=", text):
            args += ["--block", ",1,1", "--grid", "1,1,1"]
        p = subprocess.run(args, capture_output=True, text=True)
        try:
            got = json.loads(p.stdout)["verdict"]
        except (ValueError, KeyError):
            got = "exit %d" % p.returncode
        res.append((n, want, got))
    agree = sum(1 for _, w, g in res if w == g)
    print("%d of %d agree" % (agree, len(res)))
    for n, w, g in res:
        if w != g:
            print("  %s: labelled %s, ksynth %s" % (n, w, g))
    return 0


if __name__ == "__main__":
    sys.exit(main())
