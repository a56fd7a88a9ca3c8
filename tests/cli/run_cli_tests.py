#!/usr/bin/env python3
"""End-to-end tests of the `ksynth verify` command line: exit codes, diagnostics pinned to
lines, JSON and SARIF shape, --dump-smt files that z3 re-checks, usage and parse errors."""
import argparse, json, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def run(ks, *args):
    p = subprocess.run([ks, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")
    print(("ok   " if cond else "FAIL ") + name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ks = ap.parse_args().ksynth
    ex = os.path.join(ROOT, "examples")
    tmp = tempfile.mkdtemp()

    # The README's example: racy tree reduction is refuted with the race's two accesses.
    rc, out, _ = run(ks, "verify", os.path.join(ex, "reduce_racy.cu"), "--checks", "race,barrier")
    check("racy reduction exits 1", rc == 1, f"rc={rc}\n{out}")
    check("racy reduction names the race on s", "error: data race on shared array 's' [race]" in out, out)
    check("race note points at line 9 (s[t + st])", ":9:15:" in out and "s[t + st]" in out, out)
    check("verdict line last", out.strip().splitlines()[-1] == "VERDICT: REFUTED", out)

    rc, out, _ = run(ks, "verify", os.path.join(ex, "reduce.cu"), "--checks", "race,barrier")
    check("fixed reduction is proven", rc == 0 and out.strip().endswith("VERDICT: PROVEN"), out)

    # Without a declared size of `in`/`out`, bounds is unknown (not silently skipped).
    rc, out, _ = run(ks, "verify", os.path.join(ex, "reduce.cu"))
    check("undeclared global size gives unknown (exit 2)", rc == 2 and "no size is known" in out, out)

    # With sizes declared through --assume, everything is proven.
    rc, out, _ = run(ks, "verify", os.path.join(ex, "reduce.cu"), "--assume", "__len(in) >= 16384",
                     "--assume", "__len(out) >= 64")
    check("--assume sizes: proven", rc == 0, out)

    # JSON
    rc, out, _ = run(ks, "verify", os.path.join(ex, "reduce_racy.cu"), "--json", "--checks", "race")
    j = json.loads(out)
    check("json verdict", j["verdict"] == "refuted")
    obl = [o for o in j["kernels"][0]["obligations"] if o["name"] == "race.s"][0]
    check("json witness replayed", obl["status"] == "refuted" and obl["witness"]["replayed"] is True, obl)
    check("json has assumptions and model", j["assumptions"] and "interleave" in j["model"])

    # SARIF
    sarif = os.path.join(tmp, "r.sarif")
    run(ks, "verify", os.path.join(ex, "reduce_racy.cu"), "--sarif", sarif, "--checks", "race")
    s = json.load(open(sarif))
    check("sarif 2.1.0", s["version"] == "2.1.0" and s["runs"][0]["results"][0]["ruleId"] == "race", s)

    # --dump-smt: every query is a self-contained file; z3 answers unsat for the proven kernel.
    d = os.path.join(tmp, "smt")
    run(ks, "verify", os.path.join(ex, "reduce.cu"), "--checks", "race,barrier", "--dump-smt", d)
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    check("dump-smt wrote queries", any(f.startswith("reduce.race.s") for f in files), files)
    if shutil.which("z3"):
        for f in files:
            p = subprocess.run(["z3", "-T:30", os.path.join(d, f)], capture_output=True, text=True)
            check(f"z3 re-checks {f} as unsat", p.stdout.strip() == "unsat", p.stdout + p.stderr)

    # Launch flags: GPUVerify spellings and list syntax.
    rc, out, _ = run(ks, "verify", os.path.join(ex, "reduce.cu"), "--blockDim=[256]", "--gridDim=64",
                     "--checks", "race,barrier")
    check("GPUVerify --blockDim=[..] spelling", rc == 0, out)

    # Usage and malformed input.
    rc, _, err = run(ks, "verify")
    check("no file: usage exit 64", rc == 64 and "no input file" in err, err)
    rc, _, err = run(ks, "verify", os.path.join(ex, "reduce.cu"), "--checks", "nonsense")
    check("bad --checks: exit 64", rc == 64 and "unknown check" in err, err)
    bad = os.path.join(tmp, "bad.cu")
    open(bad, "w").write("__global__ void k(int *a) { a[0] = ; }\n")
    rc, out, err = run(ks, "verify", bad)
    check("parse error: exit 65 with clang's message", rc == 65 and "expected expression" in err, err)
    un = os.path.join(tmp, "fp.cu")
    open(un, "w").write("__device__ int f(int x) { return x > 0 ? f(x - 1) : 0; }\n"
                        "__global__ void k(int *a) { a[threadIdx.x] = f(3); }\n")
    rc, out, err = run(ks, "verify", un, "--checks", "race")
    check("recursion: unknown with file:line", rc == 2 and "fp.cu:1:" in out and "unsupported" in out, out)

    shutil.rmtree(tmp)
    if failures:
        print("\n".join(["", "failures:"] + failures))
        return 1
    print("cli: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
