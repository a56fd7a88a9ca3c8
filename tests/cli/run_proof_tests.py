#!/usr/bin/env python3
"""End-to-end tests of proof bundles (bundle/bundle.h): `ksynth verify --proof-dir` writes them,
`ksynth check-proof` re-checks them with the z3 and cvc5 executables. Round trips on several
kernels (with and without a spec, a bounded one); tampering with one byte of the kernel, the
spec, a query or proof.json, and a deleted query, must each fail with a message that names
it; a query made sat on purpose (with every hash recomputed, as a wrong verifier would
write it) must fail on the solver's answer; a PATH without cvc5 must name the package and
still show z3's answers."""
import argparse, hashlib, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ksynth_testing import ROOT, Checks  # noqa: E402
CHECKS = Checks(detail_limit=2000)
check = CHECKS.check


def run(ks, *args, env=None):
    p = subprocess.run([ks, *args], capture_output=True, text=True, timeout=600, env=env)
    return p.returncode, p.stdout, p.stderr




def flip_byte(path, offset=-2):
    with open(path, "rb") as f:
        b = bytearray(f.read())
    b[offset] = ord("X") if b[offset] != ord("X") else ord("Y")
    with open(path, "wb") as f:
        f.write(bytes(b))


def self_hash(p):
    # As bundle/bundle.cpp computes it: nlohmann::json's compact dump (sorted keys) without the field.
    q = dict(p)
    q.pop("sha256", None)
    text = json.dumps(q, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ks = ap.parse_args().ksynth
    tmp = tempfile.mkdtemp()
    specs = os.path.join(ROOT, "specs")

    def bundle(name, *extra, spec=True):
        d = os.path.join(tmp, name)
        shutil.rmtree(d, ignore_errors=True)
        args = ["verify", os.path.join(specs, name + ".cu")]
        if spec:
            args += ["--spec", os.path.join(specs, name + ".smt")]
        rc, out, err = run(ks, *args, "--proof-dir", d, *extra)
        return d, rc, out + err

    # Round trips.
    for name in ("vec_add", "matmul_tiled", "row_sum"):
        d, rc, out = bundle(name)
        check(f"{name}: verify --proof-dir proves and writes the bundle", rc == 0 and
              os.path.exists(os.path.join(d, "proof.json")), out)
        p = json.load(open(os.path.join(d, "proof.json")))
        obl = [o for k in p["kernels"] for o in k["obligations"]]
        check(f"{name}: proof.json names kernel and spec hashes, versions and every obligation",
              p["format"] == "ksynth-proof-1" and len(p["kernel"]["sha256"]) == 64 and "spec" in p and
              p["solver"].startswith("z3") and p["ksynth"]["git"] and
              {"coverage", "equivalence", "race", "bounds"} <= {o["kind"] for o in obl}, json.dumps(p)[:500])
        check(f"{name}: every proven coverage/equivalence obligation rests on query files",
              all(o["queries"] for o in obl if o["kind"] in ("coverage", "equivalence")), json.dumps(obl)[:500])
        files = {q["file"] for o in obl for q in o["queries"]}
        on_disk = {"queries/" + f for f in os.listdir(os.path.join(d, "queries"))}
        check(f"{name}: the bundle holds exactly the queries it names", files == on_disk,
              f"{sorted(files ^ on_disk)[:5]}")
        first = open(os.path.join(d, sorted(files)[0])).read()
        check(f"{name}: a query says in words what it encodes", first.startswith("; ksynth ") and
              "unsat means" in first, first[:300])
        heads = {f: "".join(l for l in open(os.path.join(d, f)) if l.startswith(";")) for f in files}
        src_lines = set(range(1, len(open(os.path.join(specs, name + ".cu")).read().splitlines()) + 1))

        def cited(h):
            nums = [int(x) for l in h.splitlines() if l.startswith(("; source lines:", "; source: line"))
                    for x in l.split(":")[1].replace("line", "").split()]
            return nums and set(nums) <= src_lines
        check(f"{name}: every query's header names kernel source lines that exist",
              all(cited(h) for h in heads.values()),
              "; ".join(f for f, h in heads.items() if not cited(h))[:500])
        steps = [h for f, h in heads.items() if ".spec." in f]
        check(f"{name}: every proof step says which obligation it serves", steps and
              all("; establishes: coverage of" in h or "; establishes: equivalence of" in h or
                  "; establishes: " in h and "a step of the proof" not in h for h in steps),
              "\n".join(steps)[:800])
        rc, out, err = run(ks, "check-proof", d)
        check(f"{name}: check-proof re-checks with z3 and cvc5 (exit 0)", rc == 0 and "CHECK-PROOF: OK" in out,
              out + err)

    # Without a spec (safety only), and a GPUVerify-style kernel with a launch on the command line.
    d = os.path.join(tmp, "reduce")
    rc, out, err = run(ks, "verify", os.path.join(ROOT, "examples", "reduce.cu"), "--checks", "race,barrier",
                       "--proof-dir", d)
    check("reduce (no spec): proven and bundled", rc == 0, out + err)
    rc, out, err = run(ks, "check-proof", d, "--solver", "z3")
    check("reduce (no spec): check-proof --solver z3", rc == 0 and "cvc5" not in out.splitlines()[1], out + err)

    # A bounded verdict is recorded as such and never upgraded.
    d = os.path.join(tmp, "bounded")
    rc, out, err = run(ks, "verify", os.path.join(ROOT, "tests", "kernels", "scan_two_barriers.cu"), "--spec",
                       os.path.join(specs, "scan_block.smt"), "--proof-dir", d)
    out += err
    check("scan_two_barriers: verify exits 2 (bounded)", rc == 2 and "VERDICT: BOUNDED" in out, out)
    rc, out, err = run(ks, "check-proof", d)
    check("scan_two_barriers: check-proof keeps bounded (exit 2, not re-checked)",
          rc == 2 and "recorded as bounded (never upgraded)" in out and "not proven" in out, out + err)

    # Tampering: each copy of the good bundle gets one change.
    good, _, _ = bundle("vec_add")

    def tampered(what, change, expect):
        d = os.path.join(tmp, "t_" + what)
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(good, d)
        change(d)
        rc, out, err = run(ks, "check-proof", d)
        check(f"tampered {what}: check-proof fails naming it", rc == 1 and expect in out and
              "CHECK-PROOF: FAILED" in out, out + err)

    p = json.load(open(os.path.join(good, "proof.json")))
    some_query = next(q["file"] for k in p["kernels"] for o in k["obligations"] for q in o["queries"])
    tampered("kernel", lambda d: flip_byte(os.path.join(d, "kernel.cu")), "kernel: ")
    tampered("spec", lambda d: flip_byte(os.path.join(d, "spec.smt")), "spec: ")
    tampered("query", lambda d: flip_byte(os.path.join(d, some_query)), "has changed since the proof")
    def edit_time(d):  # one digit of a time: still valid JSON, not the proof that was written
        path = os.path.join(d, "proof.json")
        text = open(path).read()
        i = text.index('"time_ms": ') + len('"time_ms": ')
        open(path, "w").write(text[:i] + ("7" if text[i] != "7" else "8") + text[i + 1:])
    tampered("proof.json", edit_time, "proof.json: its sha256 does not match")
    d = os.path.join(tmp, "t_syntax")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(good, d)
    flip_byte(os.path.join(d, "proof.json"), 1)
    rc, out, err = run(ks, "check-proof", d)
    check("proof.json that does not parse: check-proof fails", rc == 1 and "does not parse" in err, out + err)
    tampered("deleted query", lambda d: os.remove(os.path.join(d, some_query)), "is missing")

    # The kernel as it is now, elsewhere: --kernel compares that file instead.
    rc, out, _ = run(ks, "check-proof", good, "--kernel", os.path.join(specs, "vec_add.cu"), "--solver", "z3")
    check("--kernel: the library's current file matches the bundle", rc == 0, out)
    rc, out, _ = run(ks, "check-proof", good, "--kernel", os.path.join(specs, "saxpy.cu"), "--solver", "z3")
    check("--kernel: another file does not", rc == 1 and "has changed since the proof" in out, out)

    # A wrong verifier: a query that is sat, with every hash made to match.
    def forged(name, qfile, text):
        """A copy of the good bundle whose query `qfile` is `text`, every hash recomputed."""
        d = os.path.join(tmp, name)
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(good, d)
        open(os.path.join(d, qfile), "w").write(text)
        p = json.load(open(os.path.join(d, "proof.json")))
        for k in p["kernels"]:
            for o in k["obligations"]:
                for q in o["queries"]:
                    if q["file"] == qfile:
                        q["sha256"] = hashlib.sha256(text.encode()).hexdigest()
        p["sha256"] = self_hash(p)
        json.dump(p, open(os.path.join(d, "proof.json"), "w"), indent=2)
        return d

    sat_text = "; ksynth query (made satisfiable on purpose)\n(set-logic ALL)\n(declare-const x Int)\n" \
               "(assert (> x 0))\n(check-sat)\n"
    d = forged("sat", some_query, sat_text)
    rc, out, err = run(ks, "check-proof", d)
    check("a sat query with matching hashes: check-proof fails on the solvers' answers",
          rc == 1 and "z3 answers 'sat'" in out and "cvc5 answers 'sat'" in out and
          "proof.json: its sha256" not in out, out + err)
    # Solver runs in parallel change the wall time only: the same table and errors, in the
    # same order, from one process at a time and from four.
    rc1, out1, _ = run(ks, "check-proof", d, "--jobs", "1")
    rc4, out4, _ = run(ks, "check-proof", d, "--jobs", "4")
    check("check-proof --jobs 1 and --jobs 4 print the same report (the sat query failing in both)",
          rc1 == rc4 == 1 and out1 == out4 and "z3 answers 'sat'" in out4, out1 + "\n----\n" + out4)

    # Batches (many queries to one solver process): a sat query in the middle of a bundle is
    # blamed on itself, not on a neighbour, and the report is the one --no-batch prints.
    all_queries = list(dict.fromkeys(q["file"] for k in p["kernels"] for o in k["obligations"] for q in o["queries"]))
    middle = all_queries[len(all_queries) // 2]
    fd = forged("sat_middle", middle, sat_text)
    rc, out, err = run(ks, "check-proof", fd)
    rc1, out1, _ = run(ks, "check-proof", fd, "--no-batch")
    bad = [l for l in out.splitlines() if "answers 'sat'" in l]
    check(f"a sat query in the middle of {len(all_queries)}: blamed on it alone, the same report with --no-batch",
          len(all_queries) >= 3 and rc == rc1 == 1 and out == out1 and len(bad) >= 2 and
          all(os.path.basename(middle) in l for l in bad), out + "\n----\n" + out1)
    # A file that is not one query as ksynth writes them is not asked at all: one that prints
    # "unsat" itself, one whose first (check-sat) is trivially unsat.
    for what, text in [("echo", "(set-logic ALL)\n(echo \"unsat\")\n(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n"),
                       ("two_checks", "(set-logic ALL)\n(declare-const x Int)\n(push 1)\n(assert false)\n(check-sat)\n"
                                      "(pop 1)\n(assert (> x 0))\n(check-sat)\n")]:
        fd = forged("shape_" + what, middle, text)
        for flag in ([], ["--no-batch"]):
            rc, out, err = run(ks, "check-proof", fd, *flag)
            check(f"a query file with {what} {' '.join(flag)}: fails as not one query, no solver asked about it",
                  rc == 1 and "is not one query as ksynth writes them" in out and "answers" not in out, out + err)

    # --skip: the skipped solver is not asked about that query, the other one still is (and its
    # 'sat' still fails the check); skipping every solver of a query fails it too.
    qname = os.path.basename(some_query)
    rc, out, err = run(ks, "check-proof", d, "--skip", "cvc5:" + qname)
    check("--skip cvc5:FILE on the sat query: cvc5 not asked, z3's 'sat' still fails the check",
          rc == 1 and "z3 answers 'sat'" in out and "cvc5 answers" not in out and "skipped as asked" in out,
          out + err)
    rc, out, err = run(ks, "check-proof", d, "--skip", "cvc5:" + qname, "--skip", "z3:" + qname)
    check("--skip of both solvers on one query: fails, 'no solver is asked'",
          rc == 1 and "no solver is asked about" in out and "answers 'sat'" not in out, out + err)
    rc, out, err = run(ks, "check-proof", good, "--skip", "cvc5:" + qname)
    check("--skip cvc5:FILE on a good bundle: still OK (z3 answers that query unsat)",
          rc == 0 and "CHECK-PROOF: OK" in out and "not asked about 1" in out, out + err)
    rc, _, err = run(ks, "check-proof", good, "--skip", "yices:" + qname)
    check("check-proof --skip with an unknown solver is a usage error (64)", rc == 64 and "--skip" in err, err)

    # No cvc5 on PATH: the package is named, z3's answers are still shown.
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir, exist_ok=True)
    z3 = shutil.which("z3")
    if z3 and not os.path.exists(os.path.join(bindir, "z3")):
        os.symlink(z3, os.path.join(bindir, "z3"))
    env = dict(os.environ, PATH=bindir)
    rc, out, err = run(ks, "check-proof", good, env=env)
    check("cvc5 missing: fails, names the Debian package, shows z3's answers",
          rc == 1 and "cvc5 is not on PATH (Debian package: cvc5)" in out and "unsat" in out and "missing" in out,
          out + err)

    # Usage.
    rc, _, err = run(ks, "check-proof")
    check("check-proof without a directory is a usage error (64)", rc == 64, err)
    rc, _, err = run(ks, "check-proof", good, "--solver", "yices")
    check("check-proof --solver yices is a usage error (64)", rc == 64, err)
    rc, _, err = run(ks, "check-proof", good, "--jobs", "0")
    check("check-proof --jobs 0 is a usage error (64)", rc == 64 and "--jobs" in err, err)
    rc, out, err = run(ks, "check-proof", os.path.join(tmp, "nothing-here"))
    check("check-proof of a directory without proof.json fails (1)", rc == 1 and "no proof.json" in err, err)

    shutil.rmtree(tmp, ignore_errors=True)
    return CHECKS.summary()


if __name__ == "__main__":
    sys.exit(main())
