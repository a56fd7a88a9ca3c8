#!/usr/bin/env python3
"""A markdown table from a GPU session's results (scripts/gpu-check.sh): per case, what
`ksynth run` found (result, elements compared, max errors) and timed (median, spread, GB/s,
GFLOP/s, fraction of peak), beside the library baseline at the same sizes
(bench/gpu_baselines.py) and the ratio of the two medians."""
import argparse, json

# A case is timed against the baseline of its spec (specs/NAME.smt -> NAME), or of the case
# named here (the same operation at the same sizes under another spec's name).
# mse_loss_acc adds the mean to L, which the caller zeroes (a 4-byte memset, not timed): PyTorch's
# mse_loss returns it fresh.
ALIAS = {"matmul_tiled": "matmul", "softmax_unverified": "softmax", "reduce_atomic": "atomic_sum",
         "mse_loss_acc": "mse_loss"}
# Second baselines: another library operation worth the comparison (the tensor-core product).
SECOND = {"matmul_wmma": "matmul_f16"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs")
    ap.add_argument("baselines")
    a = ap.parse_args()
    base = {}
    for line in open(a.baselines):
        if line.strip():
            j = json.loads(line)
            base[j["op"]] = j
    print("| case | result | sizes | compared (wrong) | max rel err | median ms | spread | GB/s (% peak) | GFLOP/s (% peak) | library ms | ksynth / library |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for line in open(a.runs):
        j = json.loads(line)
        run = j.get("run", {})
        checks = run.get("checks", [])
        comp = sum(c["compared"] for c in checks)
        wrong = sum(c["mismatched"] for c in checks)
        rel = max((c["max_rel_error"] for c in checks), default=float("nan"))
        t = j.get("timing", {})
        sizes = ",".join(f"{k}={v}" for k, v in j.get("plan", {}).get("dims", {}).items())
        med = t.get("median_ms")
        spec = j.get("spec", "").rsplit("/", 1)[-1].removesuffix(".smt")
        b = base.get(ALIAS.get(j["case"]) or ALIAS.get(spec) or spec or j["case"])
        ok = j.get("result") == "PASS" and not j.get("unverified")  # a ratio only for a right answer
        ratio = f"{med / b['median_ms']:.2f}" if ok and med and b else ""
        fmt = lambda x, p="%.4g": (p % x) if isinstance(x, (int, float)) else ""
        gbs = f"{t['gb_per_s']:.0f} ({100 * t['gb_per_s'] / t['peak_gb_per_s']:.0f}%)" if t.get("peak_gb_per_s") else ""
        gfl = f"{t['gflop_per_s']:.0f} ({100 * t['gflop_per_s'] / t['peak_gflop_per_s']:.1f}%)" if t.get("peak_gflop_per_s") else ""
        print(f"| {j['case']} | {j.get('result', '?')}{' (unverified)' if j.get('unverified') else ''} | {sizes} | "
              f"{comp} ({wrong}) | {fmt(rel, '%.1e')} | {fmt(med)} | {fmt(t.get('spread_pct'), '%.0f%%')} | {gbs} | {gfl} | "
              f"{fmt(b['median_ms']) if b else ''} | {ratio} |")
        s2 = base.get(SECOND.get(j["case"], ""))
        if s2 and med and ok:
            print(f"| {j['case']} vs {s2['op']} | | | | | | | | | {fmt(s2['median_ms'])} | {med / s2['median_ms']:.2f} |")


if __name__ == "__main__":
    main()
