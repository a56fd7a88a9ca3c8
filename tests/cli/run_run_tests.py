#!/usr/bin/env python3
"""End-to-end tests of `ksynth run` (gpu/): the CPU backend on several specs (agreement with
the spec on fresh inputs every repeat, every element compared); the refusals (refuted,
bounded, sizes outside the spec, usage); the defences on purposely broken kernels run with
--unverified (a stale-output kernel caught by poisoned outputs, a result cached across calls
caught by fresh inputs, a kernel that never ends stopped); --backend gpu without a driver;
and the GPU runner's plumbing through a stand-in driver (tests/gpu/fake_cuda.cpp): poison
reaches the device buffers and comes back, timing fields, and the watchdog killing a launch
that never returns. With nvcc on PATH, the real compile and its ptxas figures."""
import argparse, json, os, shutil, stat, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ksynth_testing import ROOT, Checks  # noqa: E402
SPECS = os.path.join(ROOT, "specs")
KERNELS = os.path.join(ROOT, "tests", "gpu", "kernels")
CHECKS = Checks(detail_limit=3000)
check = CHECKS.check


def run(ks, *args, env=None, timeout=600):
    e = dict(os.environ)
    e.pop("KSYNTH_LIBCUDA", None)
    e.update(env or {})
    t0 = time.time()
    p = subprocess.run([ks, "run", *args], capture_output=True, text=True, timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr, time.time() - t0




def js(out):
    try:
        return json.loads(out)
    except Exception:
        return {}


def spec(name):
    return os.path.join(SPECS, name + ".cu"), "--spec", os.path.join(SPECS, name + ".smt")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ap.add_argument("--fake-cuda", required=True)
    a = ap.parse_args()
    ks, fake = a.ksynth, a.fake_cuda
    tmp = tempfile.mkdtemp()
    nogpu = {"KSYNTH_LIBCUDA": os.path.join(tmp, "no-libcuda.so")}

    # CPU backend on several specs: every element of every repeat agrees.
    for name, sizes in [("matmul_tiled", ["M=17", "N=18", "K=19"]), ("layernorm", ["R=5", "C=33", "eps=0.5"]),
                        ("atomic_sum", ["N=1000"]), ("saxpy", ["N=300"]), ("transpose", ["H=20", "W=37"]),
                        ("maxpool2d", ["OH=9", "OW=7"])]:
        rc, out, err, _ = run(ks, *spec(name), "--backend", "cpu", "--size", *sizes, "--json", "--nvcc", "none", env=nogpu)
        j = js(out)
        r = j.get("run", {})
        checks = r.get("checks", [])
        check(f"{name}: cpu backend passes", rc == 0 and j.get("result") == "PASS" and r.get("agrees") is True,
              out + err)
        check(f"{name}: every repeat compared", r.get("repeats") == 7 and checks and
              all(c["compared"] > 0 and c["mismatched"] == 0 for c in checks), out)
        check(f"{name}: not timed, and says so", r.get("timed") is False and "no GPU" in r.get("not_timed", "")
              and "timing" not in j, out)
        check(f"{name}: verified, not flagged", j.get("verification", {}).get("verdict") == "proven"
              and j.get("unverified") is False, out)
    # Every element: matmul_tiled at 17x18 compares 306 elements per repeat.
    rc, out, err, _ = run(ks, *spec("matmul_tiled"), "--backend", "cpu", "--size", "M=17", "N=18", "K=19", "--json",
                          "--nvcc", "none", "--repeat", "3", "--warmup", "0", env=nogpu)
    c = js(out).get("run", {}).get("checks", [{}])[0]
    check("matmul_tiled: every element of every repeat", c.get("compared") == 3 * 17 * 18, out)

    # Text report.
    rc, out, err, _ = run(ks, *spec("vec_add"), "--backend", "cpu", "--nvcc", "none", env=nogpu)
    check("text: default sizes named", "N: default" in out and "RESULT: PASS" in out and rc == 0, out + err)
    check("text: compile skipped is said", "compile: skipped: nvcc disabled" in out, out)
    check("text: not timed", "not timed: no GPU" in out, out)

    # Refusals.
    relu0 = os.path.join(KERNELS, "relu_zero_init.cu")
    rc, out, err, _ = run(ks, relu0, "--spec", os.path.join(SPECS, "relu.smt"), "--size", "N=300", env=nogpu)
    check("refuted kernel: refused, exit 1", rc == 1 and "RESULT: REFUSED" in out and "refusing to run" in err
          and "--unverified" in err, out + err)
    rc, out, err, _ = run(ks, os.path.join(ROOT, "tests", "kernels", "scan_two_barriers.cu"), "--spec",
                          os.path.join(SPECS, "scan_block.smt"), "--size", "N=5", env=nogpu)
    check("bounded kernel: refused, exit 2", rc == 2 and "REFUSED" in out and "bounded" in err, out + err)
    rc, out, err, _ = run(ks, *spec("matmul"), "--backend", "cpu", "--size", "M=20000", "N=2", "K=2", env=nogpu)
    check("sizes outside the spec: not run, exit 2", rc == 2 and "outside the spec" in err and "NOT RUN" in out,
          out + err)
    rc, out, err, _ = run(ks, *spec("matmul"), "--backend", "cpu", "--size", "M=2", "N=2", env=nogpu)
    check("a dim without a size on the CPU backend is defaulted", rc == 0 and "K: default" in out, out + err)
    for args, what in [((os.path.join(SPECS, "vec_add.cu"),), "no --spec"), ((*spec("vec_add"), "--size"), "--size"),
                       ((*spec("vec_add"), "--backend", "tpu"), "--backend"),
                       ((*spec("vec_add"), "--repeat", "0"), "--repeat"),
                       ((*spec("vec_add"), "--bogus"), "unknown option")]:
        rc, out, err, _ = run(ks, *args, env=nogpu)
        check(f"usage: {what}", rc == 64 and "usage: ksynth run" in err, out + err)
    rc, out, err, _ = run(ks, *spec("vec_add"), "--size", "Q=3", env=nogpu)
    check("usage: --size of a name the spec lacks", rc == 64 and "no dim or scalar 'Q'" in err, out + err)
    rc, out, err, _ = run(ks, *spec("saxpy"), "--backend", "cpu", "--size", "a=inf", "--nvcc", "none", env=nogpu)
    check("a non-finite scalar is refused", rc == 2 and "finite" in out, out + err)
    rc, out, err, _ = run(ks, *spec("conv2d"), "--backend", "cpu", "--nvcc", "none", "--json", env=nogpu)
    j = js(out)
    check("default sizes keep the output non-trivial (conv2d)", rc == 0 and
          j.get("run", {}).get("checks", [{}])[0].get("compared", 0) >= 7 * 16, out + err)
    macro = os.path.join(tmp, "macro.cu")
    with open(os.path.join(SPECS, "vec_add.cu")) as f:
        src = f.read()
    with open(macro, "w") as f:
        f.write(src.replace("C[i] = A[i] + B[i];", "#ifdef __KSYNTH__\n    C[i] = A[i] + B[i];\n#else\n    C[i] = A[i] - B[i];\n#endif"))
    rc, out, err, _ = run(ks, macro, "--spec", os.path.join(SPECS, "vec_add.smt"), "--backend", "cpu", "--nvcc", "none",
                          env=nogpu)
    check("a file that tests __KSYNTH__ is refused (nvcc would compile other code)", rc == 2 and "REFUSED" in out and
          "__KSYNTH__" in err, out + err)
    req = os.path.join(tmp, "req.cu")
    with open(req, "w") as f:
        f.write(src.replace("int i = blockIdx.x", "__requires(N % 4 == 0);\n  int i = blockIdx.x"))
    rc, out, err, _ = run(ks, req, "--spec", os.path.join(SPECS, "vec_add.smt"), "--backend", "cpu", "--nvcc", "none",
                          "--size", "N=10", env=nogpu)
    check("sizes the kernel's own __requires excludes are not run", rc == 2 and "line 4" in err and "NOT RUN" in out,
          out + err)
    rc, out, err, _ = run(ks, req, "--spec", os.path.join(SPECS, "vec_add.smt"), "--backend", "cpu", "--nvcc", "none",
                          "--size", "N=12", env=nogpu)
    check("... and sizes it admits are", rc == 0 and "PASS" in out, out + err)
    rc, out, err, _ = run(ks, *spec("vec_add"), "--backend", "gpu", env=nogpu)
    check("--backend gpu without a driver: not run, exit 2, says why", rc == 2 and "no GPU" in err and
          "NOT RUN" in out, out + err)

    # The defences, on purposely broken kernels run anyway.
    rc, out, err, _ = run(ks, relu0, "--spec", os.path.join(SPECS, "relu.smt"), "--size", "N=300", "--unverified",
                          "--backend", "cpu", "--nvcc", "none", env=nogpu)
    lines = [l for l in out.splitlines() if l.strip()]
    check("stale output: wrong, exit 1", rc == 1 and "RESULT: WRONG" in out and "never written: still holding the poison" in out,
          out + err)
    check("unverified: every line says so", lines and all(l.startswith("[UNVERIFIED] ") for l in lines), out)
    rc, out, err, _ = run(ks, relu0, "--spec", os.path.join(SPECS, "relu.smt"), "--size", "N=300", "--unverified",
                          "--backend", "cpu", "--nvcc", "none", "--json", env=nogpu)
    j = js(out)
    c = j.get("run", {}).get("checks", [{}])[0]
    check("stale output (json): unverified, unwritten elements counted", j.get("unverified") is True and
          j.get("verification", {}).get("verdict") == "refuted" and c.get("unwritten", 0) > 0 and
          c.get("unwritten") == c.get("mismatched"), out)
    rc, out, err, _ = run(ks, os.path.join(KERNELS, "vec_add_cached.cu"), "--spec", os.path.join(SPECS, "vec_add.smt"),
                          "--size", "N=300", "--unverified", "--backend", "cpu", "--nvcc", "none", "--json", env=nogpu)
    check("cached result: wrong", rc == 1 and js(out).get("result") == "WRONG", out + err)
    rc, out, err, _ = run(ks, os.path.join(KERNELS, "vec_add_spin.cu"), "--spec", os.path.join(SPECS, "vec_add.smt"),
                          "--size", "N=300", "--unverified", "--backend", "cpu", "--nvcc", "none", "--json",
                          "--verify-timeout", "1", env=nogpu)
    j = js(out)
    check("never-ending kernel on the interpreter: stopped, reported as a hang", rc == 1 and j.get("result") == "HUNG"
          and j.get("run", {}).get("failure", {}).get("kind") == "hang", out + err)

    # The GPU runner through the stand-in driver, with a stand-in nvcc (deterministic ptxas lines).
    fake_nvcc = os.path.join(tmp, "nvcc")
    with open(fake_nvcc, "w") as f:
        f.write("#!/bin/sh\n"
                "out=''\nwhile [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then out=$2; shift; fi; shift; done\n"
                "printf 'fake cubin' > \"$out\"\n"
                "echo \"ptxas info    : Compiling entry function '_Z7vec_addPKfS0_Pfi' for 'sm_80'\"\n"
                "echo \"ptxas info    : Function properties for _Z7vec_addPKfS0_Pfi\"\n"
                "echo \"    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\"\n"
                "echo \"ptxas info    : Used 12 registers, used 0 barriers, 1024 bytes smem, 380 bytes cmem[0]\"\n")
    os.chmod(fake_nvcc, os.stat(fake_nvcc).st_mode | stat.S_IEXEC)
    fenv = {"KSYNTH_LIBCUDA": fake, "KSYNTH_FAKE_KERNEL": "_Z7vec_addPKfS0_Pfi"}
    base = (*spec("vec_add"), "--size", "N=1000", "--nvcc", fake_nvcc, "--json")
    rc, out, err, _ = run(ks, *base, env=fenv)
    j = js(out)
    c = j.get("run", {}).get("checks", [{}])[0]
    check("fake driver: backend gpu chosen, device named", j.get("backend") == "gpu" and
          j.get("device", {}).get("name") == "ksynth fake CUDA device", out + err)
    check("fake driver: ptxas figures parsed", j.get("compile", {}).get("ptxas") ==
          {"registers": 12, "spill_stores": 8, "spill_loads": 4, "shared_bytes": 1024, "stack_bytes": 0}, out)
    check("fake driver: a launch that writes nothing leaves every element poisoned (NaN), wrong",
          rc == 1 and j.get("result") == "WRONG" and c.get("compared") == 7000 and c.get("unwritten") == 7000, out)
    t = j.get("timing", {})
    check("fake driver: timed repeats, warm-ups excluded", t.get("median_ms") == 1.0 and t.get("repeats") == 5 and
          t.get("warmup") == 2 and abs(t.get("gb_per_s", 0) - 12000 / 1e-3 / 1e9) < 1e-9, out)
    rc, out, err, dt = run(ks, *base, "--timeout", "3", env={**fenv, "KSYNTH_FAKE_LAUNCH": "hang"})
    j = js(out)
    check("fake driver: a launch that never returns is killed by the watchdog", rc == 1 and j.get("result") == "HUNG"
          and "did not finish within 3 s" in j.get("run", {}).get("failure", {}).get("error", "") and dt < 60,
          out + err)
    rc, out, err, _ = run(ks, *base, env={**fenv, "KSYNTH_FAKE_LAUNCH": "fault"})
    j = js(out)
    check("fake driver: a faulting kernel is reported", rc == 1 and j.get("result") == "FAILED" and
          "illegal memory access" in j.get("run", {}).get("failure", {}).get("error", ""), out + err)
    rc, out, err, _ = run(ks, *base, env={**fenv, "KSYNTH_FAKE_LAUNCH": "refuse"})
    j = js(out)
    check("fake driver: a refused launch is reported", rc == 1 and
          j.get("run", {}).get("failure", {}).get("kind") == "launch", out + err)
    rc, out, err, _ = run(ks, *base, "--block", "2048", env=fenv)
    j = js(out)
    check("fake driver: resource limits checked before launching", rc == 1 and
          j.get("run", {}).get("failure", {}).get("kind") == "resources" and "2048" in
          j.get("run", {}).get("failure", {}).get("error", ""), out + err)
    rc, out, err, _ = run(ks, *spec("vec_add"), "--size", "N=1000", "--nvcc", fake_nvcc, env={**fenv, "KSYNTH_FAKE_KERNEL": "_Z5otherPf"})
    check("fake driver: a cubin without the kernel is reported", rc == 1 and "no kernel 'vec_add' in the cubin" in out,
          out + err)

    # A real GPU, where there is one: the proven kernel agrees and is timed.
    rc, out, err, _ = run(ks, *spec("vec_add"), "--backend", "gpu", "--size", "N=1000003", "--json")
    j = js(out)
    if rc == 2 and "no GPU" in err:
        print("skip GPU: " + err.strip().splitlines()[-1])
    elif rc == 2 and "nvcc" in err:
        print("skip GPU: " + err.strip().splitlines()[-1])
    else:
        check("GPU: the proven vec_add agrees and is timed", rc == 0 and j.get("result") == "PASS" and
              j.get("timing", {}).get("median_ms", 0) > 0, out + err)

    # Real nvcc, where it exists.
    nvcc = shutil.which("nvcc")
    if nvcc:
        rc, out, err, _ = run(ks, *spec("matmul_tiled"), "--backend", "cpu", "--size", "M=4", "N=4", "K=4", "--arch",
                              "sm_80", "--json", env=nogpu)
        p = js(out).get("compile", {}).get("ptxas", {})
        check("nvcc: cubin compiled, registers and shared memory reported", rc == 0 and p.get("registers", 0) > 0 and
              p.get("shared_bytes") == 2048, out + err)
        bad = os.path.join(tmp, "bad.cu")
        with open(os.path.join(SPECS, "vec_add.cu")) as f:
            src = f.read()
        with open(bad, "w") as f:
            f.write(src.replace("C[i] = A[i] + B[i];", "C[i] = A[i] + B[i];\n#ifdef __NVCC__\n  undeclared_fn();\n#endif"))
        rc, out, err, _ = run(ks, bad, "--spec", os.path.join(SPECS, "vec_add.smt"), "--backend", "cpu", "--size",
                              "N=10", env=nogpu)
        check("nvcc: a compile error is shown and fails the run", rc == 1 and "undeclared_fn" in err and
              "COMPILE FAILED" in out and "verification: proven" in out, out + err)
    else:
        print("skip nvcc: not on PATH")

    shutil.rmtree(tmp, ignore_errors=True)
    return CHECKS.summary()


if __name__ == "__main__":
    sys.exit(main())
