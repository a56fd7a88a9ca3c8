#!/usr/bin/env python3
"""Library baselines for `ksynth run` timings: the same operations at the same sizes through
PyTorch (cuBLAS for the products, its own kernels otherwise), timed like ksynth times a
kernel: CUDA events around each call, L2 flushed before each, median of the timed repeats
after warm-ups. f32 unless the spec is f16/bf16 (and matmul_f16, cuBLAS on tensor cores), TF32 off. Prints one JSON object per line."""
import argparse
import json
import statistics

import torch
import torch.nn.functional as F


def timed(fn, repeats, warmup, flush):
    times = []
    for r in range(warmup + repeats):
        flush.fill_(r & 0xff)
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        if r >= warmup:
            times.append(a.elapsed_time(b))
    return statistics.median(times), min(times), max(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=2)
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    flush = torch.empty(2 * torch.cuda.get_device_properties(dev).L2_cache_size // 4 + (64 << 20) // 4,
                        dtype=torch.float32, device=dev)
    g = torch.Generator(device=dev).manual_seed(1)

    def rnd(*shape):
        return torch.rand(*shape, generator=g, device=dev) * 2 - 1

    N = 1 << 24
    cases = []
    A, B = rnd(N), rnd(N)
    cases.append(("vec_add", {"N": N}, lambda: torch.add(A, B)))
    cases.append(("relu", {"N": N}, lambda: torch.relu(A)))
    cases.append(("gelu", {"N": N}, lambda: F.gelu(A)))
    cases.append(("saxpy", {"N": N}, lambda: B.add_(A, alpha=0.5)))
    cases.append(("atomic_sum", {"N": N}, lambda: A.sum()))
    cases.append(("mse_loss", {"N": N}, lambda: F.mse_loss(A, B, reduction="mean")))
    Ah, Bh = A.half(), B.half()
    cases.append(("vec_add_f16", {"N": N}, lambda: torch.add(Ah, Bh)))
    M = 4096
    X, Y = rnd(M, M), rnd(M, M)
    cases.append(("add2d", {"M": M, "N": M}, lambda: torch.add(X, Y)))
    cases.append(("transpose", {"H": M, "W": M}, lambda: X.t().contiguous()))
    cases.append(("row_sum", {"R": M, "C": M}, lambda: X.sum(dim=1)))
    cases.append(("row_max", {"R": M, "C": M}, lambda: X.amax(dim=1)))
    cases.append(("argmax_rows", {"R": M, "C": M}, lambda: X.argmax(dim=1)))
    Xb = X.bfloat16()
    cases.append(("row_sum_bf16", {"R": M, "C": M}, lambda: Xb.sum(dim=1, dtype=torch.float32)))
    cases.append(("softmax", {"R": M, "C": M}, lambda: torch.softmax(X, dim=1)))
    Gm, Bt = rnd(M), rnd(M)
    cases.append(("layernorm", {"R": M, "C": M}, lambda: F.layer_norm(X, (M,), Gm, Bt, eps=0.25)))
    cases.append(("rmsnorm", {"R": M, "C": M}, lambda: X * torch.rsqrt((X * X).mean(dim=1, keepdim=True) + 0.25) * Gm))
    v = rnd(M)
    cases.append(("gemv", {"M": M, "N": M}, lambda: torch.mv(X, v)))
    cases.append(("matmul", {"M": M, "N": M, "K": M}, lambda: torch.matmul(X, Y)))
    # Tensor cores: f16 operands, f32 accumulation (cuBLAS; f16 result, where
    # specs/matmul_f16.smt's is f32: half the bytes written). The baseline of matmul_f16's
    # kernels; for matmul_wmma, which reads f32 and rounds to f16 itself, a reference point.
    Xh, Yh = X.half(), Y.half()
    cases.append(("matmul_f16", {"M": M, "N": M, "K": M}, lambda: torch.matmul(Xh, Yh)))
    cases.append(("maxpool2d", {"OH": M // 2, "OW": M // 2}, lambda: F.max_pool2d(X[None, None], 2)))
    # The 5-point average of specs/stencil2d.smt as a 3 x 3 cross of 0.2 (no padding: the
    # (H - 2) x (W - 2) interior), and specs/conv1d.smt (cross-correlation, as conv1d is).
    cross = torch.tensor([[0.0, 0.2, 0.0], [0.2, 0.2, 0.2], [0.0, 0.2, 0.0]], device=dev)[None, None]
    cases.append(("stencil2d", {"H": M, "W": M}, lambda: F.conv2d(X[None, None], cross)))
    N1, K1 = 1 << 20, 64
    A1, W1 = rnd(N1), rnd(K1)
    cases.append(("conv1d", {"N": N1, "K": K1}, lambda: F.conv1d(A1[None, None], W1[None, None])))
    Wt = rnd(1, 1, 5, 5)
    cases.append(("conv2d", {"H": M, "W": M, "KH": 5, "KW": 5}, lambda: F.conv2d(X[None, None], Wt)))
    for name, sizes, fn in cases:
        med, lo, hi = timed(fn, args.repeat, args.warmup, flush)
        print(json.dumps({"op": name, "sizes": sizes, "median_ms": med, "min_ms": lo, "max_ms": hi,
                          "library": "torch " + torch.__version__}), flush=True)


if __name__ == "__main__":
    main()
