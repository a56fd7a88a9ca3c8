#!/usr/bin/env python3
"""Hostile input: every case is generated here (nothing large is committed), run under a
memory limit, and must end with its expected exit status within its time limit: a verdict
or a clear error, never a crash, a hang or a run past `--timeout`.

Usage: tests/hostile/run_hostile.py --ksynth PATH [--only SUBSTRING] [--list]"""
import argparse, json, os, random, resource, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ksynth_testing import ROOT, Checks  # noqa: E402

TIMEOUT = 8          # the --timeout given to every verify below
SLACK = 2.5          # how far past it a run may end (start-up, printing)
MEM = 8 << 30        # address-space limit of every run (the issue's 8 GB)
VERDICT = {0, 1, 2}  # proven, refuted, unknown: an honest verdict
MALFORMED, USAGE = 65, 64

VEC_ADD_SPEC = open(os.path.join(ROOT, "specs", "vec_add.smt")).read()


def kernel(expr, body_extra="", params="const float *A, const float *B, float *C, int N", head=""):
    return (head + "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
            f"__global__ void k({params}) {{\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + body_extra +
            f"  if (i < N) C[i] = {expr};\n}}\n")


def cases(tmp):
    """(name, files {relative name: text or bytes}, argv after 'ksynth', expected statuses,
    words one of which the output must hold when the status is an error, time limit)."""
    out = []

    def verify(name, kernel_text, expect, words=(), spec=VEC_ADD_SPEC, extra=(), limit=TIMEOUT + SLACK,
               files=None):
        fs = {"k.cu": kernel_text}
        argv = ["verify", "k.cu", "--timeout", str(TIMEOUT)]
        if spec is not None:
            fs["s.smt"] = spec
            argv += ["--spec", "s.smt"]
        fs.update(files or {})
        out.append((name, fs, argv + list(extra), expect, words, limit))

    # Deep and long expressions.
    verify("parens_250", kernel("(B[i] + " * 250 + "A[i]" + ")" * 250), VERDICT)
    verify("parens_past_clang_limit", kernel("(B[i] + " * 400 + "A[i]" + ")" * 400), {MALFORMED},
           ("bracket nesting",))
    verify("flat_sum_900", kernel(" + ".join(["A[i]"] * 900)), VERDICT)
    verify("flat_sum_5000", kernel(" + ".join(["A[i]"] * 5000)), {MALFORMED}, ("nested more than",))
    verify("flat_sum_50000", kernel(" + ".join(["A[i]"] * 50000)), VERDICT | {MALFORMED}, ("nest",))
    verify("flat_product_20000", kernel(" * ".join(["A[i]"] * 20000)), VERDICT | {MALFORMED}, ("nest",))
    verify("unary_minus_100000", kernel("- " * 100000 + "A[i] + B[i]"), VERDICT | {MALFORMED}, ("nest",))
    verify("ternary_chain_10000",
           kernel("".join(f"i == {j} ? A[i] : " for j in range(10000)) + "A[i] + B[i]"),
           VERDICT | {MALFORMED}, ("nest",))
    verify("cast_chain_5000", kernel("(float)" * 5000 + "(A[i] + B[i])"), VERDICT | {MALFORMED}, ("nest",))
    verify("nested_blocks_300", kernel("A[i] + B[i]", body_extra="{" * 300 + "}" * 300), VERDICT | {MALFORMED},
           ("nest",))
    verify("nested_ifs_2000", kernel("A[i] + B[i]", body_extra="".join(f"if (i != {j}) " for j in range(2000))
                                     + "C[i] = 0;\n"), VERDICT | {MALFORMED}, ("nest",))
    # Just within the nesting limit: the interpreter's thread stacks and every recursion fit.
    verify("nested_ifs_990", kernel("A[i] + B[i]", body_extra="".join(f"if (i != {j} + N) " for j in range(490))
                                    + "C[i] = A[i] + B[i];\n"), VERDICT)
    verify("ternary_chain_490", kernel("".join(f"i == {j} + N ? B[i] : " for j in range(490)) + "A[i] + B[i]"),
           VERDICT)
    verify("parenthesised_casts_240", kernel("(float)(" * 240 + "A[i] + B[i]" + ")" * 240), VERDICT)
    verify("nested_loops_200", kernel("A[i] + B[i]", body_extra="".join(
        f"for (int j{j} = 0; j{j} < 2; ++j{j}) " for j in range(200)) + "C[i] = 0;\n"), VERDICT | {MALFORMED},
           ("nest",))
    # Huge literals and arrays.
    verify("huge_int_literal", kernel("A[i] + B[i] + 99999999999999999999999999999"), {MALFORMED},
           ("too large",))
    verify("huge_float_literal", kernel("A[i] + B[i] * 1e999999f"), VERDICT)
    verify("long_float_literal", kernel("A[i] + B[i] * 1." + "1" * 100000 + "f"), {MALFORMED}, ("literal",))
    verify("float_literal_500_digits", kernel("A[i] + B[i] * 1." + "0" * 500 + "f"), VERDICT)
    verify("huge_local_array", kernel("A[i] + B[i] + t[threadIdx.x]",
                                      body_extra="  float t[1 << 30];\n  t[threadIdx.x] = 0;\n"), VERDICT | {MALFORMED})
    verify("huge_shared_array", kernel("A[i] + B[i] + s[threadIdx.x]",
                                       body_extra="  __shared__ float s[1 << 30];\n  s[threadIdx.x] = 0;\n"),
           VERDICT | {MALFORMED})
    # Many of things.
    verify("many_params_5000", kernel("A[i] + B[i]", params="const float *A, const float *B, float *C, int N, "
                                      + ", ".join(f"int p{j}" for j in range(5000))), VERDICT | {MALFORMED})
    verify("many_barriers_4000", kernel("A[i] + B[i]", body_extra="  __syncthreads();\n" * 4000), VERDICT)
    verify("many_statements_20000", kernel("A[i] + B[i]", body_extra="".join(
        f"  float v{j} = A[0] * {j};\n" for j in range(20000))), VERDICT | {MALFORMED})
    verify("many_kernels_2000", "".join(f"__global__ void k{j}(float *a) {{ a[threadIdx.x] = {j}; }}\n"
                                        for j in range(2000)), VERDICT | {USAGE, MALFORMED}, spec=None)
    # Deep call trees: each function calls the next twice (2^41 calls once inlined).
    calls = "__device__ float f41(float x) { return x; }\n" + "".join(
        f"__device__ float f{j}(float x) {{ return f{j + 1}(x) + f{j + 1}(x); }}\n" for j in range(40, -1, -1))
    verify("call_tree_41", kernel("f0(A[i])", head=calls), VERDICT | {MALFORMED})
    chain = "__device__ float g2000(float x) { return x; }\n" + "".join(
        f"__device__ float g{j}(float x) {{ return g{j + 1}(x) + 1.0f; }}\n" for j in range(1999, -1, -1))
    verify("call_chain_2000", kernel("g0(A[i])", head=chain), VERDICT | {MALFORMED})
    # The preprocessor.
    bomb = "#define M0 A[i]\n" + "".join(f"#define M{j} M{j - 1} + M{j - 1}\n" for j in range(1, 33))
    # Clang expands it lazily, for longer than the limit: ended at the limit, unknown.
    verify("macro_bomb_2_32", kernel("M32", head=bomb), {2, MALFORMED}, ("time limit", "macro"))
    verify("macro_bomb_json", kernel("M32", head=bomb), {2}, extra=("--json",))
    # A kernel whose proof takes about 30 s: --timeout 2 ends it, unknown, saying why.
    wmma = open(os.path.join(ROOT, "specs", "fast", "matmul_wmma.cu")).read()
    mm = open(os.path.join(ROOT, "specs", "matmul.smt")).read()
    out.append(("slow_proof_timeout_2", {"k.cu": wmma, "s.smt": mm}, ["verify", "k.cu", "--spec", "s.smt", "--timeout", "2"],
                {2}, ("time limit",), 2 + SLACK))
    verify("include_self", "#include \"k.cu\"\n" + kernel("A[i] + B[i]"), {MALFORMED}, ("include",))
    verify("include_cycle", "#include \"a.h\"\n" + kernel("A[i] + B[i]"), {MALFORMED}, ("include",),
           files={"a.h": "#include \"b.h\"\n", "b.h": "#include \"a.h\"\n"})
    verify("include_dev_zero", "#include \"/dev/zero\"\n" + kernel("A[i] + B[i]"), {MALFORMED},
           ("/dev/zero",))
    verify("include_dev_urandom", "#include \"/dev/urandom\"\n" + kernel("A[i] + B[i]"), {MALFORMED},
           ("/dev/urandom",))
    verify("include_directory", "#include \"/tmp\"\n" + kernel("A[i] + B[i]"), {MALFORMED}, ("/tmp",))
    # Bytes that are not a kernel.
    verify("nul_bytes", kernel("A[i] + B[i]").replace("\n  int i", "\n\0\0  int i").encode(), VERDICT | {MALFORMED})
    rnd = random.Random(7)
    verify("binary_garbage", bytes(rnd.randrange(256) for _ in range(200000)), {MALFORMED})
    verify("empty_file", "", {MALFORMED, USAGE}, ("kernel",))
    verify("big_file_10mb", ("// " + "x" * 77 + "\n") * (10 * 1024 * 1024 // 81) + kernel("A[i] + B[i]"),
           VERDICT | {MALFORMED}, ("large",))
    verify("invalid_utf8", kernel("A[i] + B[i]").encode() + b"// \xff\xfe\xc3\x28\n", VERDICT)
    # Launch lines and flags that no GPU can launch.
    for tag, launch in [("block_zero", "grid=(1) block=(0)"), ("block_negative", "grid=(1) block=(-32)"),
                        ("grid_x_over", "grid=(2147483648) block=(256)"), ("grid_y_over", "grid=(1,65536) block=(256)"),
                        ("grid_div_zero", "grid=(N / 0) block=(256)"), ("grid_mod_zero", "grid=(N % 0) block=(256)"),
                        ("grid_missing_operand", "grid=(N +* / 256) block=(256)"),
                        ("grid_huge_literal", "grid=(99999999999999999999999) block=(256)"),
                        ("grid_parens_5000", "grid=(" + "(" * 5000 + "N" + ")" * 5000 + ") block=(256)"),
                        ("grid_minus_100000", "grid=(" + "- " * 100000 + "N) block=(256)"),
                        ]:
        text = kernel("A[i] + B[i]").replace("grid=((N + 255) / 256) block=(256)", launch)
        verify("launch_" + tag, text, {USAGE}, ("grid", "block", "dimension", "launch"))
    # Blocks over CUDA's 1024 threads are checked as given (GPUVerify's suites use them).
    for tag, launch in [("block_over_1024", "grid=(1) block=(2048)"), ("block_3d_over", "grid=(1) block=(32,32,2)"),
                        ("block_z_over_64", "grid=(1) block=(1,1,128)"),
                        ("grid_parens_100", "grid=(" + "(" * 100 + "(N + 255) / 256" + ")" * 100 + ") block=(256)")]:
        text = kernel("A[i] + B[i]").replace("grid=((N + 255) / 256) block=(256)", launch)
        verify("launch_" + tag, text, VERDICT)
    for flag, val in [("--block", "0"), ("--block", "-1"), ("--grid", "0"),
                      ("--grid", "1,1,65536"), ("--block", "1e9"), ("--timeout", "nan"), ("--timeout", "-1"),
                      ("--timeout", "0"), ("--timeout", "inf"), ("--timeout", "1e400"), ("--timeout", "abc"),
                      ("--bound", "-3"), ("--bound", "99999999999999999999")]:
        verify(f"flag_{flag[2:]}_{val}", kernel("A[i] + B[i]"), {USAGE}, (flag[2:],), extra=(flag, val))
    # The other commands' limits.
    for cmd in (["run", "k.cu", "--spec", "s.smt", "--backend", "cpu"], ["check-proof", "."]):
        for val in ("nan", "-1", "inf"):
            out.append((f"{cmd[0]}_timeout_{val}", {"k.cu": kernel("A[i] + B[i]"), "s.smt": VEC_ADD_SPEC},
                        cmd + ["--timeout", val], {USAGE}, ("timeout",), TIMEOUT + SLACK))
    # Specs.
    def spec_case(name, spec_text, expect, words=()):
        verify("spec_" + name, kernel("A[i] + B[i]"), expect, words, spec=spec_text)
    spec_case("deep_term_100000", VEC_ADD_SPEC.replace("(+ (A i) (B i))", "(+ " * 100000 + "(A i)" +
                                                       " (B i))" * 100000), {MALFORMED}, ("nest",))
    spec_case("deep_term_300", VEC_ADD_SPEC.replace("(+ (A i) (B i))", "(+ " * 300 + "(A i)" + " 0.0)" * 300
                                                    ).replace("0.0)", "(B i))", 1), VERDICT)
    spec_case("wide_sum_50000", VEC_ADD_SPEC.replace("(+ (A i) (B i))", "(+ " + " ".join(["(A i)"] * 50000) + ")"),
              VERDICT | {MALFORMED})
    spec_case("deep_let_20000", VEC_ADD_SPEC.replace("(+ (A i) (B i))", "".join(f"(let ((x{j} (A i))) "
                                                                                for j in range(20000)) +
                                                     "(+ x0 (B i))" + ")" * 20000), {MALFORMED}, ("nest",))
    spec_case("deep_let_200", VEC_ADD_SPEC.replace("(+ (A i) (B i))", "".join(f"(let ((x{j} (A i))) "
                                                                            for j in range(200)) +
                                                   "(+ x199 (B i))" + ")" * 200), VERDICT)
    spec_case("deep_parens_only", "(" * 200000 + ")" * 200000, {MALFORMED}, ("nest",))
    spec_case("unbalanced", VEC_ADD_SPEC + "(((", {MALFORMED})
    spec_case("garbage", bytes(rnd.randrange(256) for _ in range(100000)), {MALFORMED})
    spec_case("nul_bytes", VEC_ADD_SPEC.replace("(dims N)", "(dims N\0)"), {MALFORMED})
    spec_case("empty", "", {MALFORMED})
    spec_case("huge_int", VEC_ADD_SPEC.replace("(dims N)", "(dims N)\n  (assume (<= N 9999999999999999999999999999999))"),
              VERDICT | {MALFORMED})
    spec_case("huge_negative_int", VEC_ADD_SPEC.replace("(dims N)",
                                                       "(dims N)\n  (assume (>= N -9999999999999999999999999999999))"),
              VERDICT | {MALFORMED})
    spec_case("many_dims_3000", VEC_ADD_SPEC.replace("(dims N)", "(dims N " + " ".join(f"D{j}" for j in range(3000))
                                                     + ")"), VERDICT | {MALFORMED})
    spec_case("huge_rank", VEC_ADD_SPEC.replace("(tensor A f32 (N) in)", "(tensor Z f32 (" + " ".join(["N"] * 2000)
                                                + ") in)\n  (tensor A f32 (N) in)"), VERDICT | {MALFORMED})
    spec_case("big_10mb", VEC_ADD_SPEC + ("; " + "y" * 78 + "\n") * (10 * 1024 * 1024 // 81), VERDICT | {MALFORMED},
              ("large",))
    # The synthesis loop's replay file.
    def prove(name, replay_bytes, expect, words=()):
        out.append(("prove_" + name, {"s.smt": VEC_ADD_SPEC, "r.jsonl": replay_bytes},
                    ["--spec", "s.smt", "--prove", "--replay", "r.jsonl", "--out", "run", "--rounds", "2",
                     "--nvcc", "none", "--quiet", "--timeout", str(TIMEOUT)], expect, words, 4 * TIMEOUT))
    prove("replay_garbage", bytes(rnd.randrange(256) for _ in range(50000)), {USAGE, MALFORMED, 2}, ("replay",))
    prove("replay_deep_json", ("[" * 100000 + "]" * 100000 + "\n").encode(), {USAGE, MALFORMED, 2}, ("replay",))
    prove("replay_empty", b"", {USAGE, MALFORMED, 2}, ("replay",))
    return out


def run_case(ks, tmp, case):
    name, files, argv, expect, words, limit = case
    d = os.path.join(tmp, name)
    os.makedirs(d)
    for f, text in files.items():
        with open(os.path.join(d, f), "wb") as fh:
            fh.write(text.encode() if isinstance(text, str) else text)

    def limits():
        if not os.environ.get("KSYNTH_HOSTILE_NO_RLIMIT"):  # AddressSanitizer reserves terabytes
            resource.setrlimit(resource.RLIMIT_AS, (MEM, MEM))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    t0 = time.time()
    p = subprocess.Popen([ks, *argv], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limits)
    try:
        out, err = p.communicate(timeout=limit + 30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    dt = time.time() - t0
    shutil.rmtree(d, ignore_errors=True)
    return p.returncode, out.decode(errors="replace"), err.decode(errors="replace"), dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    checks = Checks(detail_limit=1500)
    tmp = tempfile.mkdtemp(prefix="ksynth-hostile-")
    all_cases = [c for c in cases(tmp) if a.only in c[0]]
    if a.list:
        print("\n".join(c[0] for c in all_cases))
        return 0
    for case in all_cases:
        name, _, _, expect, words, limit = case
        rc, out, err, dt = run_case(os.path.abspath(a.ksynth), tmp, case)
        text = out + err
        ok_rc = rc in expect
        # An error must say what is wrong: one of the words, or for a verdict nothing more.
        # (and an unknown that is the only answer expected must say why, too).
        ok_words = (rc in VERDICT and expect != {2}) or not words or any(w.lower() in text.lower() for w in words)
        if "--json" in case[2] and rc in VERDICT:  # --json: stdout is one JSON object, even at the limit
            try:
                ok_words = ok_words and json.loads(out).get("verdict") in ("proven", "refuted", "unknown", "bounded")
            except ValueError:
                ok_words = False
        ok_time = dt <= limit
        checks.check(f"{name}: exit {rc} in {sorted(expect)}, {dt:.1f} s <= {limit:.1f} s",
                     ok_rc and ok_words and ok_time,
                     f"rc={rc} t={dt:.1f}s words={words}\n{text[-1200:]}")
    shutil.rmtree(tmp, ignore_errors=True)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
