#!/usr/bin/env python3
"""What the compiled code of the spec library's kernels shows about speed, without a GPU:
for each reference kernel specs/NAME.cu and fast reference kernel specs/fast/NAME.cu, nvcc's
PTX (or, where cuobjdump exists, the SASS) is searched for 128-bit global accesses
(ld/st.global.v4 in PTX, LDG.E.128/STG.E.128 in SASS), warp shuffles (shfl.sync / SHFL),
float FMAs and shared-memory loads (a register tile does several FMAs per shared load), and
local-memory accesses (a register tile that stayed an array would live there); ptxas reports
registers and spills. Prints a markdown table.

Usage: bench/compiled_evidence.py [--arch sm_90] [--only SUBSTRING]
Needs nvcc on the PATH (exit 2 without it)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernels():
    specs = os.path.join(ROOT, "specs")
    out = []
    for f in sorted(os.listdir(specs)):
        if f.endswith(".cu"):
            out.append(("specs/" + f, f[:-3]))
    fast = os.path.join(specs, "fast")
    if os.path.isdir(fast):
        for f in sorted(os.listdir(fast)):
            if f.endswith(".cu"):
                with open(os.path.join(fast, f)) as fh:
                    m = re.match(r"//\s*ksynth:spec\s+(\S+)", fh.readline())
                out.append(("specs/fast/" + f, m.group(1) if m else "?"))
    return out


def count(pattern, text):
    return len(re.findall(pattern, text, re.M))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    if not shutil.which("nvcc"):
        print("compiled_evidence: nvcc is not on the PATH", file=sys.stderr)
        return 2
    sass_tool = shutil.which("cuobjdump")
    print(f"Compiled with nvcc for {a.arch}; " + ("SASS from cuobjdump" if sass_tool else
          "PTX (cuobjdump is not installed here: v4 accesses in PTX become LDG.E.128/STG.E.128)") + ".\n")
    print("| kernel | spec | 128-bit loads | 128-bit stores | scalar global loads | shuffles | FMAs | tensor-core MMAs "
          "| shared loads | local accesses | registers | spills (st/ld bytes) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for path, spec in kernels():
            if a.only and a.only not in path:
                continue
            ptx = os.path.join(tmp, "k.ptx")
            p = subprocess.run(["nvcc", f"-arch={a.arch}", "-ptx", "-o", ptx, os.path.join(ROOT, path)],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print(f"| {path} | {spec} | nvcc failed: {p.stderr.strip()[:80]} | | | | | | | | | |")
                continue
            text = open(ptx).read()
            v = subprocess.run(["ptxas", f"-arch={a.arch}", "-v", ptx, "-o", os.path.join(tmp, "k.cubin")],
                               capture_output=True, text=True)
            regs = ",".join(re.findall(r"Used (\d+) registers", v.stderr)) or "?"
            spills = ",".join(f"{s}/{l}" for s, l in re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                                                                 v.stderr)) or "?"
            if sass_tool:
                s = subprocess.run([sass_tool, "-sass", os.path.join(tmp, "k.cubin")], capture_output=True,
                                   text=True).stdout
                ld128, st128 = count(r"LDG\.E\.128", s), count(r"STG\.E\.128", s)
                ld = count(r"LDG\.E(?!\.128)", s)
                shfl = count(r"SHFL", s)
                fma, lds, local = count(r"\bFFMA\b", s), count(r"\bLDS\b", s), count(r"\b(LDL|STL)\b", s)
                mma = count(r"\bHMMA\b", s)
            else:
                ld128 = count(r"ld\.global(\.\w+)*\.v4\.", text)
                st128 = count(r"st\.global(\.\w+)*\.v4\.", text)
                ld = count(r"ld\.global(?!(\.\w+)*\.v[24]\.)", text)
                shfl = count(r"shfl\.sync", text)
                fma = count(r"\bfma\.rn\.f32\b", text)
                lds = count(r"\bld\.shared\.", text)
                local = count(r"\b(ld|st)\.local\.", text)
                mma = count(r"\b(wmma\.mma|mma)\.sync\b", text)
            print(f"| {path} | {spec} | {ld128} | {st128} | {ld} | {shfl} | {fma} | {mma} | {lds} | {local} | {regs} | "
                  f"{spills} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
