#!/usr/bin/env python3
"""End-to-end tests of the `ksynth verify` command line: exit codes, diagnostics pinned to
lines, JSON and SARIF shape, --dump-smt files that z3 re-checks, usage and parse errors."""
import argparse, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ksynth_testing import ROOT, Checks  # noqa: E402
CHECKS = Checks(detail_limit=2000)
check = CHECKS.check


def run(ks, *args):
    p = subprocess.run([ks, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr




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

    # The host code's integer arguments: symbolic by default, assumed with --host-args (and then
    # named in the launch assumption).
    prog = os.path.join(ROOT, "tests", "corpus", "programs", "host_launch_int_args_ok.cu")
    rc, out, _ = run(ks, "verify", prog, "--checks", "race,barrier")
    check("host code's sizes stay symbolic: the fold refuted at a size it does not pass", rc == 1
          and "error: data race on global array 'out'" in out, out)
    rc, out, _ = run(ks, "verify", prog, "--checks", "race,barrier", "--host-args")
    check("--host-args: proven at n = 1000, and the assumption says so", rc == 0
          and "integer arguments every launch passes (--host-args), n = 1000" in out, out)
    rc, out, _ = run(ks, "verify", prog, "--checks", "race,barrier", "--host-args", "--block", "256", "--grid", "4")
    check("--host-args with --block/--grid: the sizes stay symbolic", rc == 1 and "(--host-args)" not in out, out)

    # Usage and malformed input.
    rc, _, err = run(ks, "verify")
    check("no file: usage exit 64", rc == 64 and "no input file" in err, err)
    rc, _, err = run(ks, "verify", os.path.join(ex, "reduce.cu"), "--checks", "nonsense")
    check("bad --checks: exit 64", rc == 64 and "unknown check" in err, err)
    # --checks coverage,equivalence: the proofs rest on safety, decided unreported where a proof
    # is attempted (the tests agree) and not at all where a test already refuted the kernel.
    # (--dump-smt writes every query the verdict rests on; --stats would show only the slowest.)
    specs = os.path.join(ROOT, "specs")
    dumped = os.path.join(tmp, "rests-on")
    rc, out, _ = run(ks, "verify", os.path.join(specs, "vec_add.cu"), "--spec", os.path.join(specs, "vec_add.smt"),
                     "--checks", "coverage,equivalence", "--dump-smt", dumped)
    files = sorted(os.listdir(dumped)) if os.path.isdir(dumped) else []
    check("coverage and equivalence alone: proven, resting on the race and bounds proofs",
          rc == 0 and "vec_add.race.C.smt2" in files and "vec_add.bounds.C.smt2" in files
          and "[race]" not in out, out + " ".join(files))
    dumped = os.path.join(tmp, "refuted-first")
    rc, out, err = run(ks, "verify", os.path.join(specs, "buggy", "vec_add_short_grid.cu"), "--spec",
                       os.path.join(specs, "vec_add.smt"), "--checks", "coverage,equivalence", "--stats",
                       "--dump-smt", dumped)
    files = sorted(os.listdir(dumped)) if os.path.isdir(dumped) else []
    check("refuted by a test: no safety query asked", rc == 1 and "[coverage]" in out and "stats:" in err
          and not any(f"vec_add.{k}." in err for k in ("race", "bounds", "overflow", "barrier"))
          and not any(f.startswith(("vec_add.race", "vec_add.bounds", "vec_add.overflow")) for f in files),
          out + err + " ".join(files))
    # A launch expression with a missing operand is a usage error (it crashed before).
    for launch in ("grid=(N +* / 256) block=(256)", "grid=(N + ) block=(256)", "grid=(1) block=(256 *)"):
        lf = os.path.join(tmp, "launch.cu")
        open(lf, "w").write("// ksynth:launch " + launch + "\n"
                            "__global__ void k(float *a, int N) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
                            " if (i < N) a[i] = 0; }\n")
        rc, _, err = run(ks, "verify", lf)
        check(f"launch line '{launch}': usage exit 64 naming the dimension", rc == 64 and "dimension" in err, f"rc={rc} {err}")
    rc, _, err = run(ks, "verify", os.path.join(ex, "reduce.cu"), "--timeout", "nan")
    check("--timeout nan: usage exit 64", rc == 64 and "--timeout" in err, f"rc={rc} {err}")
    bad = os.path.join(tmp, "bad.cu")
    open(bad, "w").write("__global__ void k(int *a) { a[0] = ; }\n")
    rc, out, err = run(ks, "verify", bad)
    check("parse error: exit 65 with clang's message", rc == 65 and "expected expression" in err, err)
    un = os.path.join(tmp, "fp.cu")
    open(un, "w").write("__device__ int f(int x) { return x > 0 ? f(x - 1) : 0; }\n"
                        "__global__ void k(int *a) { a[threadIdx.x] = f(3); }\n")
    rc, out, err = run(ks, "verify", un, "--checks", "race")
    check("recursion: unknown with file:line", rc == 2 and "fp.cu:1:" in out and "unsupported" in out, out)

    # A race through an index loaded from memory needs particular contents: unknown, with an
    # example of them. The witness search keeps loaded values small: a loaded offset near 2^31
    # overflows `i + offset` and replays nothing (what Z3's first model gave here, asked without
    # the solver's memory of earlier answers, before the search bounded them).
    ld = os.path.join(tmp, "loaded.cu")
    open(ld, "w").write("__device__ unsigned int get(int *array, int index) { return array[index]; }\n"
                        "__global__ void k(int *array, int n, float a, float *x, float *y) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  int offset = get(array, i);\n"
                        "  y[i + offset] = a * x[i] + y[i + offset];\n}\n")
    p = subprocess.run([ks, "verify", ld, "--checks", "race,barrier", "--block", ",1,1", "--grid", "1,1,1"],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, KSYNTH_ASK_EVERY_QUERY="1"))
    check("loaded index: unknown, with the memory contents that make the race", p.returncode == 2
          and "depends on the contents of memory: with memory array[" in p.stdout, p.stdout)

    # Launch dimensions as expressions: a grid over the block and a parameter, a grid whose text
    # starts with a parenthesis, and launch dimensions written over themselves (a usage error,
    # exit 64: they crashed on an assertion before).
    gs = os.path.join(tmp, "grid_stride.cu")
    open(gs, "w").write("__global__ void k(float *out, const float *a, int N) {\n"
                        "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (idx < N) out[idx] = a[idx];\n}\n")
    for grid in ["(N + 255) / 256", "(N + blockDim.x - 1) / blockDim.x", "((N + 255) / 256, 1, 1)"]:
        rc, out, err = run(ks, "verify", gs, "--checks", "race,barrier", "--block", "256", "--grid", grid)
        check(f"--grid '{grid}': one expression, proven", rc == 0 and "VERDICT: PROVEN" in out, out + err)
    for flags, says in [(["--block", "256", "--grid", "gridDim.x"], "cannot be written over gridDim"),
                        (["--block", "gridDim.x"], "cannot be written over gridDim"),
                        (["--block", "blockDim.x"], "cannot be written over blockDim"),
                        (["--block", "256", "--grid", "1,gridDim.x"], "cannot be written over gridDim")]:
        rc, out, err = run(ks, "verify", gs, "--checks", "race", *flags)
        check(f"{' '.join(flags)}: usage error (64) that says why", rc == 64 and says in err, out + err)

    # A grid-stride loop over int wraps around for N near 2^31 (the stride is unsigned, so the
    # sum wraps as C++20 says): unknown, and the note gives sizes at which it wraps (found with
    # the launch fixed; the nonlinear query alone ran to its 10 s limit). A precondition that
    # excludes them makes it provable.
    gsl = os.path.join(tmp, "grid_stride_loop.cu")
    body = ("  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  for (int i = idx; i < N; i += blockDim.x * gridDim.x) out[i] = a[i];\n}\n")
    open(gsl, "w").write("__global__ void k(float *out, const float *a, int N) {\n" + body)
    rc, out, err = run(ks, "verify", gsl, "--checks", "race,barrier", "--block", ",1,1", "--grid", ",1,1")
    check("grid-stride loop over int: unknown, the note names sizes at which 'i' wraps",
          rc == 2 and "loop variable 'i' may wrap around (a wrapping step is not ruled out at " in out and "N=2147483647" in out, out + err)
    open(gsl, "w").write("__global__ void k(float *out, const float *a, int N) {\n"
                         "  __requires(N <= 2147483647 - blockDim.x * gridDim.x);\n" + body)
    rc, out, err = run(ks, "verify", gsl, "--checks", "race,barrier", "--block", ",1,1", "--grid", ",1,1")
    check("grid-stride loop over int with a precondition that excludes the wrap: proven",
          rc == 0 and "VERDICT: PROVEN" in out, out + err)

    # --spec: binding, preconditions from the spec, coverage/equivalence honestly unknown.
    specs = os.path.join(ROOT, "specs")
    va_cu, va_smt = os.path.join(specs, "vec_add.cu"), os.path.join(specs, "vec_add.smt")
    rc, out, _ = run(ks, "verify", va_cu, "--spec", va_smt, "--checks", "race,barrier,bounds,overflow", "--json")
    j = json.loads(out)
    check("--spec safety checks: proven", rc == 0 and j["verdict"] == "proven", out)
    check("--spec json names the spec", j.get("spec", {}).get("name") == "vec_add", out)
    check("--spec sizes become preconditions", "spec vec_add: __len(C) == N" in j["assumptions"]
          and "spec vec_add: N >= 1" in j["assumptions"], j["assumptions"])
    rc, out, _ = run(ks, "verify", va_cu, "--spec", va_smt)
    check("--spec default checks include coverage/equivalence: proven (exit 0)",
          rc == 0 and "coverage 1/1 proven" in out and "equivalence 1/1 proven" in out
          and out.strip().endswith("VERDICT: PROVEN"), out)
    rc, out, _ = run(ks, "verify", va_cu, "--spec", va_smt, "--checks", "equivalence", "--json")
    j = json.loads(out)
    obl = j["kernels"][0]["obligations"]
    check("--checks equivalence alone: only equivalence reported, proven (safety decided internally)",
          rc == 0 and j["verdict"] == "proven" and obl and all(o["status"] == "proven" for o in obl)
          and {o["kind"] for o in obl} == {"equivalence"}, out)
    sm_cu = os.path.join(ROOT, "tests", "kernels", "scan_two_barriers.cu")
    sm_smt = os.path.join(ROOT, "specs", "scan_block.smt")
    rc, out, _ = run(ks, "verify", sm_cu, "--spec", sm_smt, "--checks", "equivalence", "--bound", "0")
    check("equivalence not provable yet (--bound 0): unknown (exit 2) with the reason and the sizes tested",
          rc == 2 and "equivalence.Y not proven: not proven over symbolic sizes (" in out
          and "agrees with the spec on random inputs at" in out and out.strip().endswith("VERDICT: UNKNOWN"), out)
    rc, out, _ = run(ks, "verify", sm_cu, "--spec", sm_smt, "--checks", "equivalence")
    check("the bounded fallback: bounded (exit 2), saying up to which size and why not proven",
          rc == 2 and "equivalence.Y bounded, not proven: holds for every size with each dim <= " in out
          and "not proven over symbolic sizes (" in out and out.strip().endswith("VERDICT: BOUNDED"), out)
    rc, out, _ = run(ks, "verify", sm_cu, "--spec", sm_smt, "--checks", "equivalence", "--json")
    j = json.loads(out)
    o = j["kernels"][0]["obligations"][0]
    check("bounded in JSON: status, bound and verdict", j["verdict"] == "bounded" and o["status"] == "bounded"
          and o["bound"] >= 1, out)
    k_short = os.path.join(ROOT, "specs", "buggy", "matmul_k_short.cu")
    mm_smt = os.path.join(ROOT, "specs", "matmul.smt")
    rc, out, _ = run(ks, "verify", k_short, "--spec", mm_smt, "--no-tests", "--bound", "0", "--json")
    j = json.loads(out)
    st = {o["name"]: o["status"] for o in j["kernels"][0]["obligations"]}
    check("--no-tests: the proof alone: a buggy twin is not proven (coverage proven, equivalence unknown)",
          rc == 2 and st.get("coverage.C") == "proven" and st.get("equivalence.C") == "unknown", out)
    rc, out, _ = run(ks, "verify", k_short, "--spec", mm_smt, "--no-tests", "--json")
    j = json.loads(out)
    o = {o["name"]: o for o in j["kernels"][0]["obligations"]}.get("equivalence.C", {})
    check("--no-tests with the bounded fallback: the twin is refuted, replayed with inputs",
          rc == 1 and o.get("status") == "refuted" and "inputs" in o.get("witness", {})
          and any("bounded check" in n for n in o.get("notes", [])), out)
    bad = os.path.join(ROOT, "specs", "buggy", "vec_add_same_input.cu")
    rc, out, _ = run(ks, "verify", bad, "--spec", va_smt, "--checks", "equivalence", "--json")
    j = json.loads(out)
    obl = j["kernels"][0]["obligations"]
    w = obl[0].get("witness", {}) if obl else {}
    check("equivalence counterexample: refuted (exit 1) with sizes, element, both values and inputs",
          rc == 1 and j["verdict"] == "refuted" and obl[0]["status"] == "refuted"
          and w.get("element", {}).get("tensor") == "C" and "expected" in w and "computed" in w
          and w["expected"] != w["computed"] and "A" in w.get("inputs", {}) and "N" in w.get("sizes", {}), out)
    rc, _, err = run(ks, "verify", va_cu, "--checks", "coverage")
    check("coverage without --spec: usage exit 64", rc == 64 and "needs --spec" in err, err)
    # Without the spec the same kernel's bounds are unknown: the spec is what sizes C.
    rc, out, _ = run(ks, "verify", va_cu, "--checks", "bounds")
    check("same kernel without --spec: bounds unknown", rc == 2, out)
    # A kernel that reads one past the end is refuted against the spec's extents.
    off = os.path.join(tmp, "vec_add_off.cu")
    open(off, "w").write("// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                         "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "  if (i <= N)\n    C[i] = A[i] + B[i];\n}\n")
    rc, out, _ = run(ks, "verify", off, "--spec", va_smt, "--checks", "bounds")
    check("off-by-one against spec extents: refuted bounds", rc == 1 and "[bounds]" in out, out)
    # Binding errors: missing, extra and mistyped parameters (exit 65, file:line:col).
    bad_bind = os.path.join(tmp, "bind.cu")
    open(bad_bind, "w").write("// ksynth:launch grid=(1) block=(32)\n"
                              "__global__ void vec_add(const double *A, float *C, int N, int extra) {\n"
                              "  C[0] = 0.0f;\n}\n")
    rc, out, err = run(ks, "verify", bad_bind, "--spec", va_smt)
    check("binding errors: exit 65", rc == 65, f"rc={rc} {err}")
    check("mistyped parameter reported", "bind.cu:2:39: error: parameter 'A' points to f64, but tensor 'A' of spec "
          "'vec_add' is f32" in err, err)
    check("extra parameter reported", "parameter 'extra' of kernel 'vec_add' is not in spec 'vec_add'" in err, err)
    check("missing parameter reported", "kernel 'vec_add' has no parameter for tensor 'B'" in err, err)
    # Spec errors: exit 65 with the spec's file:line:col.
    bad_spec = os.path.join(tmp, "bad.smt")
    open(bad_spec, "w").write("(spec s (dims N)\n  (tensor X f32 (N) in)\n  (tensor Y f32 (N) out)\n"
                              "  (ensures (Y i) (+ (X i i) q)))\n")
    rc, out, err = run(ks, "verify", va_cu, "--spec", bad_spec)
    check("malformed spec: exit 65", rc == 65, f"rc={rc} {err}")
    check("spec arity error pinned", "bad.smt:4:21: error: tensor 'X' has 1 dimension but is read with 2 indices" in err, err)
    check("spec unbound name pinned", "bad.smt:4:29: error: unbound name 'q'" in err, err)
    rc, out, err = run(ks, "spec", bad_spec)
    check("ksynth spec on a malformed spec: exit 65", rc == 65 and "bad.smt:4:29:" in err, err)
    vac = os.path.join(tmp, "vac.smt")
    open(vac, "w").write("(spec v (dims N) (assume (> N 10) (< N 5)) (tensor Y f32 (N) out) (ensures (Y i) 0.0))\n")
    rc, out, err = run(ks, "spec", vac)
    check("vacuous spec: exit 65", rc == 65 and "unsatisfiable" in err, err)
    rc, out, _ = run(ks, "spec", os.path.join(specs, "matmul.smt"), "--explain")
    check("ksynth spec --explain", rc == 0 and "C[i][j] = sum over k in [0, K) of A[i][k] * B[k][j]" in out, out)
    rc, out, _ = run(ks, "spec", os.path.join(specs, "softmax.smt"), "--print")
    round_trip = os.path.join(tmp, "rt.smt")
    open(round_trip, "w").write(out)
    rc2, out2, _ = run(ks, "spec", round_trip, "--print")
    check("ksynth spec --print is a fixed point", rc == 0 and rc2 == 0 and out == out2, out2)

    # Template kernels: the launch line's instance is proven against the spec; the same
    # template with the row stride halved is refuted; a template the file never instantiates
    # and an instance that does not compile are parse errors that say so.
    tpl = os.path.join(ex, "row_sum_template.cu")
    rs_smt = os.path.join(specs, "row_sum.smt")
    rc, out, _ = run(ks, "verify", tpl, "--spec", rs_smt)
    check("template kernel: the launch line's instance row_sum_block<256> is proven against row_sum",
          rc == 0 and "kernel row_sum_block<256> " in out and "equivalence 1/1 proven" in out, out)
    half = os.path.join(tmp, "row_sum_half.cu")
    open(half, "w").write(open(tpl).read().replace("c += BLOCK)", "c += BLOCK / 2)"))
    rc, out, _ = run(ks, "verify", half, "--spec", rs_smt)
    check("template kernel with a wrong stride: refuted with a replayed value", rc == 1 and "[equivalence]" in out and
          "but the spec gives" in out, out)
    other = os.path.join(tmp, "row_sum_512.cu")
    open(other, "w").write(open(tpl).read().replace("kernel=row_sum_block<256> grid=(R) block=(256)",
                                                    "kernel=row_sum_block<512> grid=(R) block=(256)"))
    rc, out, _ = run(ks, "verify", other, "--spec", rs_smt)
    check("template instance for 512 threads launched with 256: not proven (rows half summed)",
          rc == 1 and "kernel row_sum_block<512> " in out, out)
    bare = os.path.join(tmp, "bare.cu")
    open(bare, "w").write("\n".join(l for l in open(tpl).read().splitlines() if "ksynth:launch" not in l) + "\n")
    rc, out, err = run(ks, "verify", bare, "--block", "256")
    check("uninstantiated template kernel: exit 65 naming it and how to instantiate it",
          rc == 65 and "template kernel 'row_sum_block' is never instantiated" in err, err)
    # --kernel 'k<ARGS>' makes an instance the file does not: the template, its launch line
    # naming no instance, is proven for 256 threads against the spec, with the arguments spelt
    # with blanks too; the same instance of the halved-stride template is refuted; one that does
    # not compile is a parse error naming --kernel.
    bare = os.path.join(tmp, "bare_line.cu")
    open(bare, "w").write(open(tpl).read().replace("kernel=row_sum_block<256> ", ""))
    rc, out, err = run(ks, "verify", bare, "--spec", rs_smt)
    check("template kernel whose launch line names no instance: exit 65 naming --kernel",
          rc == 65 and "name an instance with --kernel 'row_sum_block<...>'" in err, err)
    rc, out, err = run(ks, "verify", bare, "--spec", rs_smt, "--kernel", "row_sum_block<256>")
    check("--kernel names an instance the file never makes: made and proven against the spec",
          rc == 0 and "kernel row_sum_block<256> " in out and "equivalence 1/1 proven" in out, out + err)
    bare_half = os.path.join(tmp, "bare_half.cu")
    open(bare_half, "w").write(open(bare).read().replace("c += BLOCK)", "c += BLOCK / 2)"))
    rc, out, err = run(ks, "verify", bare_half, "--spec", rs_smt, "--kernel", "row_sum_block< 256 >")
    check("--kernel instance of a template with a wrong stride: made and refuted",
          rc == 1 and "kernel row_sum_block<256> " in out and "[equivalence]" in out, out + err)
    rc, out, err = run(ks, "verify", bare, "--kernel", "row_sum_block<float>")
    check("--kernel instance that does not compile: exit 65, clang's error and the instance",
          rc == 65 and "--kernel asks for: row_sum_block<float>" in err, err)
    rc, out, err = run(ks, "verify", tpl, "--spec", rs_smt, "--kernel", "row_sum_block<256>")
    check("--kernel naming the instance the launch line makes: that one, made once",
          rc == 0 and out.count("kernel row_sum_block<256> ") == 1, out + err)
    typo = os.path.join(tmp, "typo.cu")
    open(typo, "w").write(open(tpl).read().replace("kernel=row_sum_block<256>", "kernel=row_sum_blok<256>"))
    rc, out, err = run(ks, "verify", typo, "--spec", rs_smt)
    check("launch line naming an instance that does not compile: exit 65, clang's error and the instance",
          rc == 65 and "row_sum_blok" in err and "launch line's kernel= asks for: row_sum_blok<256>" in err, err)

    # Headers (README "Headers"): the host libraries' headers come from a CUDA toolkit when one is
    # found, else from ksynth's declarations; a toolkit whose header does not parse with
    # ksynth's CUDA headers is set aside with a note; the preprocessor flags work as nvcc's.
    prog = os.path.join(tmp, "prog.cu")
    open(prog, "w").write(
        "#include <cublas_v2.h>\n#include <nccl.h>\n#include <mpi.h>\n#include <omp.h>\n"
        "#ifndef SCALE\n#error SCALE must be defined\n#endif\n#ifdef BROKEN\n#error BROKEN must be undefined\n#endif\n"
        "__global__ void scale(float *a, int n) {\n  __requires(__len(a) >= n);\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] *= SCALE;\n}\n"
        "int main() {\n  cublasHandle_t h;\n  cublasCreate(&h);\n  int rank;\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
        "  scale<<<4, 256>>>(nullptr, 1000);\n  return 0;\n}\n")
    rc, out, err = run(ks, "verify", prog, "--cuda-path", "none", "-DSCALE=2", "--json")
    j = json.loads(out) if out.strip() else {}
    check("host libraries from ksynth's declarations (--cuda-path none): proven, no toolkit named",
          rc == 0 and j.get("headers", {}).get("cuda_toolkit") is None, out + err)
    rc, out, err = run(ks, "verify", prog, "--cuda-path", "none", "--define-macro", "SCALE=2", "-DBROKEN",
                       "--undefine-macro", "BROKEN")
    check("--define-macro and --undefine-macro: -U undefines what a -D defined (every -U applies after every -D)", rc == 0, out + err)
    rc, out, err = run(ks, "verify", prog, "--cuda-path", "none")
    check("a missing -D: clang's #error, exit 65", rc == 65 and "SCALE must be defined" in err, err)
    fake = os.path.join(tmp, "fake-cuda")
    os.makedirs(os.path.join(fake, "include"))
    open(os.path.join(fake, "include", "cuda_runtime_api.h"), "w").write("#define CUDART_VERSION 12080\n")
    open(os.path.join(fake, "include", "cublas_v2.h"), "w").write("this is not C++;\n")
    rc, out, err = run(ks, "verify", prog, "--cuda-path", fake, "-DSCALE=2", "--json")
    j = json.loads(out) if out.strip() else {}
    notes = j.get("headers", {}).get("notes", [])
    check("a toolkit header that does not parse: read again with ksynth's declarations, said in a note",
          rc == 0 and j["headers"]["cuda_toolkit"] is None and any("did not parse" in n for n in notes), out + err)
    open(os.path.join(fake, "include", "cublas_v2.h"), "w").write(
        "#pragma once\ntypedef struct fake_ctx *cublasHandle_t;\nint cublasCreate(cublasHandle_t *);\n")
    rc, out, err = run(ks, "verify", prog, "--cuda-path", fake, "-DSCALE=2", "--json")
    j = json.loads(out) if out.strip() else {}
    check("the toolkit's own header is preferred where it parses (its include folder is reported)",
          rc == 0 and (j.get("headers", {}).get("cuda_toolkit") or "").startswith(os.path.realpath(fake)), out + err)
    rc, out, err = run(ks, "verify", prog, "--cuda-path", os.path.join(tmp, "nowhere"))
    check("--cuda-path to a folder without a toolkit: usage error naming it", rc == 64 and "no CUDA toolkit" in err, err)
    rc, out, err = run(ks, "verify", prog, "-I")
    check("-I without a folder: usage error", rc == 64 and "-I needs a directory" in err, err)
    open(os.path.join(tmp, "missing.cu"), "w").write("#include <thrust/device_vector.h>\n__global__ void k() {}\n")
    rc, out, err = run(ks, "verify", os.path.join(tmp, "missing.cu"), "--cuda-path", "none")
    check("a header nobody provides: exit 65 naming it and the flags that would find it",
          rc == 65 and "'thrust/device_vector.h' was not found" in err and "--cuda-path DIR" in err, err)

    # A kernel in a project header: its diagnostics name the header and its lines.
    inc = os.path.join(ROOT, "tests", "corpus", "programs", "included_kernel_bad.cu")
    rc, out, _ = run(ks, "verify", inc, "--checks", "race")
    check("a header's kernel: the race is reported at the header's line",
          rc == 1 and "inc/shift_bad.cuh:7:14: error: data race on global array 'out' [race]" in out, out)
    rc, out, _ = run(ks, "verify", inc, "--checks", "race", "--json")
    o = [o for o in json.loads(out)["kernels"][0]["obligations"] if o["status"] == "refuted"][0]
    check("a header's kernel: --json names the header beside the line",
          o.get("file", "").endswith("inc/shift_bad.cuh") and o.get("line") == 7, o)

    # The prelude's PCH (verify/frontend/frontend.cpp, preludePch): made by the first parse in
    # the cache folder, read by the next, never a cause of another result.
    cache = os.path.join(tmp, "cache")
    with_pch = dict(os.environ, KSYNTH_CACHE_DIR=cache)
    with_pch.pop("KSYNTH_NO_PCH", None)
    without = dict(with_pch, KSYNTH_NO_PCH="1")

    def verdict(env, *args):
        p = subprocess.run([ks, "verify", *args, "--json"], capture_output=True, text=True, timeout=120, env=env)
        try:
            j = json.loads(p.stdout)
        except ValueError:
            return p.returncode, p.stderr
        return p.returncode, [(k["name"], o["name"], o["status"], o.get("line")) for k in j["kernels"]
                              for o in k["obligations"]]

    def pchs():
        return sorted(f for f in os.listdir(cache) if f.endswith(".pch")) if os.path.isdir(cache) else []

    racy = os.path.join(ex, "reduce_racy.cu")
    base = verdict(without, racy)
    check("KSYNTH_NO_PCH=1: no PCH made", pchs() == [] and base[0] == 1, (pchs(), base))
    first = verdict(with_pch, racy)
    made = pchs()
    check("the first parse makes one PCH, and the verdicts are those without it", len(made) == 1 and first == base,
          (made, first, base))
    stamp = os.stat(os.path.join(cache, made[0])).st_mtime_ns if made else 0
    again = verdict(with_pch, racy)
    check("the next parse reads it (not made again), same verdicts",
          pchs() == made and made and os.stat(os.path.join(cache, made[0])).st_mtime_ns == stamp and again == base,
          (pchs(), again))
    if made:
        with open(os.path.join(cache, made[0]), "wb") as f:
            f.write(b"CPCH" + b"\0" * 4096)
    damaged = verdict(with_pch, racy)
    check("a damaged PCH: same verdicts (read with the prelude as text), the PCH removed",
          damaged == base and pchs() == [], (damaged, pchs()))
    verdict(with_pch, racy)
    check("... and made again by the next parse", len(pchs()) == 1, pchs())
    bad = os.path.join(tmp, "pch_bad.cu")
    open(bad, "w").write("__global__ void k(int *a) { a[0] = ; }\n")
    p = subprocess.run([ks, "verify", bad], capture_output=True, text=True, timeout=120, env=with_pch)
    q = subprocess.run([ks, "verify", bad], capture_output=True, text=True, timeout=120, env=without)
    check("a parse error with the PCH: exit 65, clang's message as without it, the PCH kept",
          p.returncode == 65 and p.stderr == q.stderr and "expected expression" in p.stderr and len(pchs()) == 1,
          (p.returncode, p.stderr, q.stderr, pchs()))
    defined = verdict(with_pch, racy, "-DUNUSED_NAME=1")
    check("a file with its own -D: parsed without a PCH (none made for it)", defined == base and len(pchs()) == 1,
          (defined, pchs()))
    # A host header the PCH was made from that changed since (clang does not check system
    # headers in a PCH): the PCH is made again.
    listed = os.path.join(cache, pchs()[0] + ".inputs") if pchs() else ""
    lines = open(listed).read().splitlines() if os.path.exists(listed) else []
    check("the PCH lists the host headers it read (size, time, path)",
          any(l.endswith("/cmath") for l in lines) and all(len(l.split(" ", 2)) == 3 for l in lines), lines[:5])
    if lines:
        size, ns, path = lines[0].split(" ", 2)
        open(listed, "w").write("\n".join([f"{int(size) + 1} {ns} {path}"] + lines[1:]) + "\n")
        stamp = os.stat(os.path.join(cache, pchs()[0])).st_mtime_ns
        stale = verdict(with_pch, racy)
        check("a listed header that changed: same verdicts, the PCH made again",
              stale == base and pchs() and os.stat(os.path.join(cache, pchs()[0])).st_mtime_ns != stamp
              and open(listed).read().splitlines() == lines, (stale, pchs()))
    blocked = os.path.join(tmp, "not_a_folder")
    open(blocked, "w").write("")
    nowhere = verdict(dict(with_pch, KSYNTH_CACHE_DIR=os.path.join(blocked, "cache")), racy)
    check("a cache folder that cannot be made: same verdicts", nowhere == base, nowhere)

    shutil.rmtree(tmp)
    return CHECKS.summary()


if __name__ == "__main__":
    sys.exit(main())
