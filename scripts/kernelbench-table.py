#!/usr/bin/env python3
"""Writes specs/kernelbench/README.md: one row per KernelBench level-1 problem with its spec,
reference kernel, verdict, verification time and what the proof covers.

Every problem is listed; one without a spec says so. Each kernel is verified as a user would
(`ksynth verify NN_name.cu --spec NN_name.smt --json`: every check, concrete tests first, then
the proofs over symbolic sizes), -j N at a time (default 1, so the times are comparable); the time is
the command's wall time on the machine this runs on. The verdicts must agree with
specs/kernelbench/expected.json (checked by tests/run_specs.py, ctest `kernelbench`).

Usage: scripts/kernelbench-table.py [--ksynth build/ksynth] [--out specs/kernelbench/README.md]
                                    [--json FILE] [-j N]
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
KB = os.path.join(ROOT, "specs", "kernelbench")

# KernelBench level 1, by number (the file names in KernelBench/level1/, without .py).
PROBLEMS = [
    "1_Square_matrix_multiplication_",
    "2_Standard_matrix_multiplication_",
    "3_Batched_matrix_multiplication",
    "4_Matrix_vector_multiplication_",
    "5_Matrix_scalar_multiplication",
    "6_Matmul_with_large_K_dimension_",
    "7_Matmul_with_small_K_dimension_",
    "8_Matmul_with_irregular_shapes_",
    "9_Tall_skinny_matrix_multiplication_",
    "10_3D_tensor_matrix_multiplication",
    "11_4D_tensor_matrix_multiplication",
    "12_Matmul_with_diagonal_matrices_",
    "13_Matmul_for_symmetric_matrices",
    "14_Matmul_for_upper_triangular_matrices",
    "15_Matmul_for_lower_triangular_matrices",
    "16_Matmul_with_transposed_A",
    "17_Matmul_with_transposed_B",
    "18_Matmul_with_transposed_both",
    "19_ReLU",
    "20_LeakyReLU",
    "21_Sigmoid",
    "22_Tanh",
    "23_Softmax",
    "24_LogSoftmax",
    "25_Swish",
    "26_GELU_",
    "27_SELU_",
    "28_HardSigmoid",
    "29_Softplus",
    "30_Softsign",
    "31_ELU",
    "32_HardTanh",
    "33_BatchNorm",
    "34_InstanceNorm",
    "35_GroupNorm_",
    "36_RMSNorm_",
    "37_FrobeniusNorm_",
    "38_L1Norm_",
    "39_L2Norm_",
    "40_LayerNorm",
    "41_Max_Pooling_1D",
    "42_Max_Pooling_2D",
    "43_Max_Pooling_3D",
    "44_Average_Pooling_1D",
    "45_Average_Pooling_2D",
    "46_Average_Pooling_3D",
    "47_Sum_reduction_over_a_dimension",
    "48_Mean_reduction_over_a_dimension",
    "49_Max_reduction_over_a_dimension",
    "50_conv_standard_2D__square_input__square_kernel",
    "51_Argmax_over_a_dimension",
    "52_Argmin_over_a_dimension",
    "53_Min_reduction_over_a_dimension",
    "54_conv_standard_3D__square_input__square_kernel",
    "55_conv_standard_2D__asymmetric_input__square_kernel",
    "56_conv_standard_2D__asymmetric_input__asymmetric_kernel",
    "57_conv_transposed_2D__square_input__square_kernel",
    "58_conv_transposed_3D__asymmetric_input__asymmetric_kernel",
    "59_conv_standard_3D__asymmetric_input__square_kernel",
    "60_conv_standard_3D__square_input__asymmetric_kernel",
    "61_conv_transposed_3D__square_input__square_kernel",
    "62_conv_standard_2D__square_input__asymmetric_kernel",
    "63_conv_standard_2D__square_input__square_kernel",
    "64_conv_transposed_1D",
    "65_conv_transposed_2D__square_input__asymmetric_kernel",
    "66_conv_standard_3D__asymmetric_input__asymmetric_kernel",
    "67_conv_standard_1D",
    "68_conv_transposed_3D__square_input__asymmetric_kernel",
    "69_conv_transposed_2D__asymmetric_input__asymmetric_kernel",
    "70_conv_transposed_3D__asymmetric_input__square_kernel",
    "71_conv_transposed_2D__asymmetric_input__square_kernel",
    "72_conv_transposed_3D_asymmetric_input_asymmetric_kernel___strided_padded_grouped_",
    "73_conv_transposed_3D_asymmetric_input_square_kernel__strided_padded__grouped",
    "74_conv_transposed_1D_dilated",
    "75_conv_transposed_2D_asymmetric_input_asymmetric_kernel_strided__grouped____padded____dilated__",
    "76_conv_standard_1D_dilated_strided__",
    "77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__",
    "78_conv_transposed_2D_asymmetric_input_asymmetric_kernel___padded__",
    "79_conv_transposed_1D_asymmetric_input_square_kernel___padded____strided____dilated__",
    "80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__",
    "81_conv_transposed_2D_asymmetric_input_square_kernel___dilated____padded____strided__",
    "82_conv_depthwise_2D_square_input_square_kernel",
    "83_conv_depthwise_2D_square_input_asymmetric_kernel",
    "84_conv_depthwise_2D_asymmetric_input_square_kernel",
    "85_conv_depthwise_2D_asymmetric_input_asymmetric_kernel",
    "86_conv_depthwise_separable_2D",
    "87_conv_pointwise_2D",
    "88_MinGPTNewGelu",
    "89_cumsum",
    "90_cumprod",
    "91_cumsum_reverse",
    "92_cumsum_exclusive",
    "93_masked_cumsum",
    "94_MSELoss",
    "95_CrossEntropyLoss",
    "96_HuberLoss",
    "97_ScaledDotProductAttention",
    "98_KLDivLoss",
    "99_TripletMarginLoss",
    "100_HingeLoss"
]


def files_of(num):
    """(spec, kernel) paths of problem num, or (None, None)."""
    for f in sorted(os.listdir(KB)):
        m = re.match(r"(\d+)_.*\.smt$", f)
        if m and int(m.group(1)) == num:
            smt = os.path.join(KB, f)
            return smt, smt[:-4] + ".cu"
    return None, None


def explain_line(ks, smt, prefix):
    p = subprocess.run([ks, "spec", smt, "--explain"], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip().rstrip(".")
    return ""


def verify(ks, num):
    smt, cu = files_of(num)
    row = {"num": num, "problem": PROBLEMS[num - 1]}
    if not smt:
        row["verdict"] = "no spec"
        return row
    row["spec"] = os.path.relpath(smt, KB)
    row["kernel"] = os.path.relpath(cu, KB) if os.path.exists(cu) else None
    row["dims"] = explain_line(ks, smt, "Sizes (integers, each at least 1):")
    row["assumptions"] = explain_line(ks, smt, "Assumptions:")
    row["sizes"] = explain_line(ks, smt, "The problem's own sizes (the kernel must still be right for every admitted size):")
    if not row["kernel"]:
        row["verdict"] = "no kernel"
        return row
    t0 = time.time()
    p = subprocess.run([ks, "verify", cu, "--spec", smt, "--json"], capture_output=True, text=True, timeout=900)
    row["seconds"] = round(time.time() - t0, 2)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        row["verdict"] = f"error (exit {p.returncode})"
        return row
    row["verdict"] = j.get("verdict")
    open_ = []
    for k in j.get("kernels", []):
        for o in k.get("obligations", []):
            if o.get("status") != "proven":
                bound = f" up to {o['bound']}" if o.get("status") == "bounded" and "bound" in o else ""
                open_.append(f"{o['name']} {o['status']}{bound}: {o.get('reason', '')}")
    row["open"] = open_
    return row


def covers(r):
    v = r.get("verdict")
    if v == "proven":
        a = r.get("assumptions") or "none"
        return f"every size: {r.get('dims', '')}; assuming {a}; real-number semantics"
    if v in ("bounded", "unknown", "refuted"):
        first = (r.get("open") or ["?"])[0]
        first = first.replace("|", "/").replace("\n", " ")
        return first[:300] + ("..." if len(first) > 300 else "")
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", default=os.path.join(ROOT, "build", "ksynth"))
    ap.add_argument("--out", default=os.path.join(KB, "README.md"))
    ap.add_argument("--json")
    ap.add_argument("-j", type=int, default=1)
    a = ap.parse_args()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        rows = list(ex.map(lambda n: verify(a.ksynth, n), range(1, len(PROBLEMS) + 1)))
    for r in rows:
        print(f"{r['num']:3d} {r['verdict']:10s} {r.get('seconds', '')}", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    proven = [r for r in rows if r["verdict"] == "proven"]
    times = sorted(r["seconds"] for r in rows if "seconds" in r)
    ptimes = sorted(r["seconds"] for r in proven)
    count = {}
    for r in rows:
        count[r["verdict"]] = count.get(r["verdict"], 0) + 1
    out = []
    out.append("# KernelBench level 1 as proven specs\n")
    out.append("One spec per problem of KernelBench's level 1 (`NN_name.smt`), with the problem's own shapes as its "
               "`(sizes ...)`, and a reference kernel (`NN_name.cu`) verified against it over symbolic sizes: no race, "
               "no out-of-bounds access, no integer overflow, every output element written once, and equal to the "
               "spec over the reals. Buggy twins are `specs/buggy/kbNN_*.cu`. Generated by "
               f"`scripts/kernelbench-table.py -j {a.j}` (every kernel verified as users run it, tests then proofs, "
               f"{a.j} at a time on this machine); the verdicts are checked by ctest `kernelbench` against `expected.json`, the bundles are "
               "in `proofs/kernelbench/`, re-checked with the z3 and cvc5 executables by ctest `proofs_kernelbench` "
               "(`tests/run_proofs.py --set kernelbench`; the queries cvc5 does not answer in time, listed in "
               "`proofs/expected.json`, are re-checked by z3 alone).\n")
    summary = ", ".join(f"{v} {n}" for v, n in sorted(count.items(), key=lambda x: -x[1]))
    out.append(f"**{len(proven)} of {len(PROBLEMS)} proven over symbolic sizes** ({summary}).")
    if ptimes:
        out.append(f" Proven kernels: median {ptimes[len(ptimes) // 2]:.1f} s, max {ptimes[-1]:.1f} s per verification "
                   f"(wall time, tests included, on the machine that generated this file).\n")
    out.append("\n| # | KernelBench problem | spec | kernel | verdict | time (s) | what the proof covers, or what is open |")
    out.append("|---|---|---|---|---|---|---|")
    for r in rows:
        spec = f"[{r['spec']}]({r['spec']})" if r.get("spec") else ""
        kern = f"[{r['kernel']}]({r['kernel']})" if r.get("kernel") else ""
        out.append(f"| {r['num']} | {r['problem']} | {spec} | {kern} | {r['verdict']} | {r.get('seconds', '')} | "
                   f"{covers(r)} |")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {a.out}: {len(proven)} proven")
    return 0


if __name__ == "__main__":
    sys.exit(main())
