#!/usr/bin/env bash
# The prepared checks for a session that has the GPU machine (one run; README "Running"):
# `ksynth run` on the bundled specs at large sizes (correctness against the spec on fresh
# inputs every repeat, timing), the defences (a stale-output kernel, a kernel that caches its
# result across calls, a kernel that never ends), then library baselines at the same sizes
# (bench/gpu_baselines.py, PyTorch/cuBLAS). Writes $OUT/log.txt, $OUT/runs.jsonl and
# $OUT/baselines.jsonl. SET=fast runs only the fast reference kernels (specs/fast/), the
# textbook kernel of each of their specs, and the baselines. KSYNTH names the binary (default build/ksynth); SMALL=1 shrinks every
# size for a dry run without a GPU (KSYNTH_LIBCUDA pointing at the fake driver). A machine
# without clang 19 and Z3 gets them from scripts/device-bundle.sh (its header says how).
set -u
O=${OUT:-/tmp/ksynth-gpu-out}
mkdir -p "$O"
K=${KSYNTH:-build/ksynth}
exec > >(tee -a "$O/log.txt") 2>&1
cd "$(dirname "$0")/.."
if [ "${SMALL:-0}" = 1 ]; then N1=1000; N2=40; NK=20; else N1=16777216; N2=4096; NK=4096; fi
H2=$((N2 / 2))
date -u
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem --format=csv
nvcc --version | tail -2

run() { # NAME KERNEL SPEC [ARGS...]
  local name=$1 kernel=$2 spec=$3
  shift 3
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then return; fi # ONLY="case case ..."
  local t0=$SECONDS
  timeout 240 "$K" run "$kernel" --spec "$spec" --json "$@" > "$O/cur.json" 2> "$O/cur.err"
  local rc=$?
  python3 - "$name" "$rc" "$O/cur.json" "$O/cur.err" "$((SECONDS - t0))" >> "$O/runs.jsonl" <<'PY'
import json, sys
name, rc, jf, ef, secs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
try:
    j = json.load(open(jf))
except Exception as e:
    j = {"parse_error": str(e), "raw": open(jf).read()[-3000:]}
j.update(case=name, rc=rc, stderr=open(ef).read()[-3000:], wall_s=secs)
print(json.dumps(j))
PY
  python3 - "$O/runs.jsonl" <<'PY'
import json, sys
j = json.loads(open(sys.argv[1]).read().splitlines()[-1])
t = j.get("timing", {})
checks = j.get("run", {}).get("checks", [])
bad = sum(c["mismatched"] for c in checks)
print(f"{j['case']:28} rc={j['rc']} {j.get('result', '?'):14} wall={j['wall_s']}s "
      f"median={t.get('median_ms', float('nan')):.4g}ms GB/s={t.get('gb_per_s', float('nan')):.4g} "
      f"GFLOP/s={t.get('gflop_per_s', float('nan')):.4g} wrong={bad} "
      f"{(j.get('run', {}).get('failure') or {}).get('error', '')[:120]} {j['stderr'][-200:].strip()}")
PY
}

S=specs
# The core: proven kernels, and the defences (not in SET=fast).
if [ "${SET:-all}" != fast ]; then
run vec_add $S/vec_add.cu $S/vec_add.smt --size N=$N1
run relu_zero_init tests/gpu/kernels/relu_zero_init.cu $S/relu.smt --size N=$N1 --unverified
run vec_add_cached tests/gpu/kernels/vec_add_cached.cu $S/vec_add.smt --size N=$N1 --unverified
run matmul $S/matmul.cu $S/matmul.smt --size M=$N2 N=$N2 K=$N2
run matmul_tiled $S/matmul_tiled.cu $S/matmul_tiled.smt --size M=$N2 N=$N2 K=$N2
run vec_add_spin tests/gpu/kernels/vec_add_spin.cu $S/vec_add.smt --size N=$N1 --unverified --timeout ${SPIN_TIMEOUT:-20} --verify-timeout 2
run vec_add_after_hang $S/vec_add.cu $S/vec_add.smt --size N=$N1
fi
# The fast reference kernels (specs/fast/): float4/half2 maps, warp-shuffle and block (shuffle
# + shared memory) reductions, cooperative groups, online softmax, register-tiled,
# double-buffered and tensor-core (WMMA) products, a tiled transpose. Each beside its textbook
# kernel (run above or below) and the library baseline of its spec.
fast() {
  run vec_add_float4 $S/fast/vec_add_float4.cu $S/vec_add.smt --size N=$N1
  run relu_float4 $S/fast/relu_float4.cu $S/relu.smt --size N=$N1
  run saxpy_float4 $S/fast/saxpy_float4.cu $S/saxpy.smt --size N=$N1 a=0.5
  run gelu_float4 $S/fast/gelu_float4.cu $S/gelu.smt --size N=$N1
  run scale_grid_stride_f4 $S/fast/scale_grid_stride_f4.cu $S/scale_grid_stride.smt --size N=$N1
  run scale_grid_stride_f4_sized $S/fast/scale_grid_stride_f4_sized.cu $S/scale_grid_stride.smt --size N=$N1
  run vec_add_half2 $S/fast/vec_add_half2.cu $S/vec_add_f16.smt --size N=$N1
  run atomic_sum_warp $S/fast/atomic_sum_warp.cu $S/atomic_sum.smt --size N=$N1
  run mse_loss_acc_warp $S/fast/mse_loss_acc_warp.cu $S/mse_loss_acc.smt --size N=$N1
  run atomic_sum_block $S/fast/atomic_sum_block.cu $S/atomic_sum.smt --size N=$N1
  run atomic_sum_block_f4 $S/fast/atomic_sum_block_f4.cu $S/atomic_sum.smt --size N=$N1
  run mse_loss_acc_block $S/fast/mse_loss_acc_block.cu $S/mse_loss_acc.smt --size N=$N1
  # One block (L is written once): against mse_loss's 278x of one block of 256 with scalar loads.
  run mse_loss_block $S/fast/mse_loss_block.cu $S/mse_loss.smt --size N=$N1
  run block_sum_warp $S/fast/block_sum_warp.cu $S/block_sum.smt --size N=$N1
  run row_sum_warp $S/fast/row_sum_warp.cu $S/row_sum.smt --size R=$N2 C=$N2
  run row_sum_warp_gs $S/fast/row_sum_warp_gs.cu $S/row_sum.smt --size R=$N2 C=$N2
  run row_sum_cg $S/fast/row_sum_cg.cu $S/row_sum.smt --size R=$N2 C=$N2
  run row_sum_block $S/fast/row_sum_block.cu $S/row_sum.smt --size R=$N2 C=$N2
  run row_sum_block_f4 $S/fast/row_sum_block_f4.cu $S/row_sum.smt --size R=$N2 C=$N2
  run row_sum_block_m8 $S/fast/row_sum_block_m8.cu $S/row_sum.smt --size R=$N2 C=$N2
  run row_sum_bf16_warp $S/fast/row_sum_bf16_warp.cu $S/row_sum_bf16.smt --size R=$N2 C=$N2
  run row_sum_bf16x2_warp $S/fast/row_sum_bf16x2_warp.cu $S/row_sum_bf16.smt --size R=$N2 C=$N2
  run row_max_warp $S/fast/row_max_warp.cu $S/row_max.smt --size R=$N2 C=$N2
  run row_max_warp_f4 $S/fast/row_max_warp_f4.cu $S/row_max.smt --size R=$N2 C=$N2
  run scan_block_warp $S/fast/scan_block_warp.cu $S/scan_block.smt --size N=256
  run scan_block_cg $S/fast/scan_block_cg.cu $S/scan_block.smt --size N=256
  run row_max_block $S/fast/row_max_block.cu $S/row_max.smt --size R=$N2 C=$N2
  run argmax_warp $S/fast/argmax_warp.cu $S/argmax_rows.smt --size R=$N2 C=$N2
  run argmax_block $S/fast/argmax_block.cu $S/argmax_rows.smt --size R=$N2 C=$N2
  run gemv_warp $S/fast/gemv_warp.cu $S/gemv.smt --size M=$N2 N=$N2
  run rmsnorm_warp $S/fast/rmsnorm_warp.cu $S/rmsnorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run rmsnorm_warp8 $S/fast/rmsnorm_warp8.cu $S/rmsnorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run rmsnorm_warp_gs $S/fast/rmsnorm_warp_gs.cu $S/rmsnorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run rmsnorm_block $S/fast/rmsnorm_block.cu $S/rmsnorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run rmsnorm_block_allwarps $S/fast/rmsnorm_block_allwarps.cu $S/rmsnorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run layernorm_warp $S/fast/layernorm_warp.cu $S/layernorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run layernorm_block $S/fast/layernorm_block.cu $S/layernorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run layernorm_block_allwarps $S/fast/layernorm_block_allwarps.cu $S/layernorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
  run softmax_warp $S/fast/softmax_warp.cu $S/softmax.smt --size R=$N2 C=$N2 --samples 512
  run softmax_online_warp $S/fast/softmax_online_warp.cu $S/softmax.smt --size R=$N2 C=$N2 --samples 512
  run softmax_online_warp8 $S/fast/softmax_online_warp8.cu $S/softmax.smt --size R=$N2 C=$N2 --samples 512
  run softmax_online_block $S/fast/softmax_online_block.cu $S/softmax.smt --size R=$N2 C=$N2 --samples 512
  run softmax_block $S/fast/softmax_block.cu $S/softmax.smt --size R=$N2 C=$N2 --samples 512
  run log_softmax_block $S/fast/log_softmax_block.cu $S/kernelbench/24_log_softmax.smt --size B=$N2 D=$N2 --samples 512
  run transpose_tiled $S/fast/transpose_tiled.cu $S/transpose.smt --size H=$N2 W=$N2
  run add2d_float4 $S/fast/add2d_float4.cu $S/add2d.smt --size M=$N2 N=$N2
  run stencil2d_tiled $S/fast/stencil2d_tiled.cu $S/stencil2d.smt --size H=$N2 W=$N2
  run conv1d_tiled $S/fast/conv1d_tiled.cu $S/conv1d.smt --size N=1048576 K=64
  run matmul_regtile $S/fast/matmul_regtile.cu $S/matmul.smt --size M=$N2 N=$N2 K=$N2
  run matmul_regtile_v4 $S/fast/matmul_regtile_v4.cu $S/matmul.smt --size M=$N2 N=$N2 K=$N2
  run matmul_regtile8 $S/fast/matmul_regtile8.cu $S/matmul.smt --size M=$N2 N=$N2 K=$N2
  run matmul_dbuf $S/fast/matmul_dbuf.cu $S/matmul.smt --size M=$N2 N=$N2 K=$N2
  run matmul_dbuf_pipelined $S/fast/matmul_dbuf_pipelined.cu $S/matmul.smt --size M=$N2 N=$N2 K=$N2
  # f32 inputs rounded to f16 in the kernel (the proof is over the reals): K products of
  # 11-bit operands, so compared at 5e-3 of the RMS rather than f32's 1e-4.
  run matmul_wmma $S/fast/matmul_wmma.cu $S/matmul.smt --size M=$N2 N=$N2 K=$N2 --rtol 5e-3 --timeout 300
  # Half operands (exact in f16), f32 accumulation: compared as the f32 products are. Its
  # proof takes about 50 s on the 2-core development machine.
  run matmul_f16_wmma $S/fast/matmul_f16_wmma.cu $S/matmul_f16.smt --size M=$N2 N=$N2 K=$N2 --timeout 600
}
# The textbook kernels of specs with a fast kernel that had not run on a GPU before
# 2026-12-04 (the others are timed in bench/results/h200-2026-11-30/).
textbook_of_fast() {
  run vec_add_f16 $S/vec_add_f16.cu $S/vec_add_f16.smt --size N=$N1
  run row_sum_bf16 $S/row_sum_bf16.cu $S/row_sum_bf16.smt --size R=$N2 C=$N2
  run row_max $S/row_max.cu $S/row_max.smt --size R=$N2 C=$N2
  run argmax_rows $S/argmax_rows.cu $S/argmax_rows.smt --size R=$N2 C=$N2
  run softmax $S/softmax.cu $S/softmax.smt --size R=$N2 C=$N2 --samples 512
  run matmul_f16 $S/matmul_f16.cu $S/matmul_f16.smt --size M=$N2 N=$N2 K=$N2
}
if [ "${SET:-all}" = fast ]; then # baselines, fast kernels, new textbook ones; nothing else
  if [ "${SMALL:-0}" != 1 ] && [ "${SKIP_BASELINES:-0}" != 1 ]; then
    timeout 150 python3 bench/gpu_baselines.py > "$O/baselines.jsonl" || echo "baselines failed: $?"
    cat "$O/baselines.jsonl"
  fi
  fast
  textbook_of_fast
  rm -f "$O/cur.json" "$O/cur.err"
  date -u
  exit 0
fi
fast
# Library baselines at the same sizes.
if [ "${SMALL:-0}" != 1 ] && [ "${SKIP_BASELINES:-0}" != 1 ]; then
  timeout 180 python3 bench/gpu_baselines.py > "$O/baselines.jsonl" || echo "baselines failed: $?"
  cat "$O/baselines.jsonl"
fi
if [ "${QUICK:-0}" = 1 ]; then # the core again, plus scalars and rows
  run saxpy $S/saxpy.cu $S/saxpy.smt --size N=$N1
  run layernorm $S/layernorm.cu $S/layernorm.smt --size R=$N2 C=$N2 --samples 512
  run atomic_sum $S/atomic_sum.cu $S/atomic_sum.smt --size N=$N1
  run conv2d_defaults $S/conv2d.cu $S/conv2d.smt
  rm -f "$O/cur.json" "$O/cur.err"
  date -u
  exit 0
fi
# The other specs.
run relu $S/relu.cu $S/relu.smt --size N=$N1
run gelu $S/gelu.cu $S/gelu.smt --size N=$N1
run saxpy $S/saxpy.cu $S/saxpy.smt --size N=$N1 a=0.5
run scale_grid_stride $S/scale_grid_stride.cu $S/scale_grid_stride.smt --size N=$N1
run atomic_sum $S/atomic_sum.cu $S/atomic_sum.smt --size N=$N1
run reduce_atomic $S/reduce_atomic.cu $S/reduce_atomic.smt --size N=$N1
run mse_loss $S/mse_loss.cu $S/mse_loss.smt --size N=$N1
run mse_loss_acc $S/mse_loss_acc.cu $S/mse_loss_acc.smt --size N=$N1
run block_sum $S/block_sum.cu $S/block_sum.smt --size N=$N1
run block_sum_interleaved $S/block_sum_interleaved.cu $S/block_sum_interleaved.smt --size N=$N1
run add2d $S/add2d.cu $S/add2d.smt --size M=$N2 N=$N2
run transpose $S/transpose.cu $S/transpose.smt --size H=$N2 W=$N2
run row_sum $S/row_sum.cu $S/row_sum.smt --size R=$N2 C=$N2
run gemv $S/gemv.cu $S/gemv.smt --size M=$N2 N=$N2
run layernorm $S/layernorm.cu $S/layernorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
run rmsnorm $S/rmsnorm.cu $S/rmsnorm.smt --size R=$N2 C=$N2 eps=0.25 --samples 512
run maxpool2d $S/maxpool2d.cu $S/maxpool2d.smt --size OH=$H2 OW=$H2
run conv2d $S/conv2d.cu $S/conv2d.smt --size H=$N2 W=$N2 KH=5 KW=5
run stencil2d $S/stencil2d.cu $S/stencil2d.smt --size H=$N2 W=$N2
run conv1d $S/conv1d.cu $S/conv1d.smt --size N=1048576 K=64
run softmax $S/softmax.cu $S/softmax.smt --size R=$N2 C=$N2 --samples 512
run row_max $S/row_max.cu $S/row_max.smt --size R=$N2 C=$N2
run argmax_rows $S/argmax_rows.cu $S/argmax_rows.smt --size R=$N2 C=$N2
run scan_block $S/scan_block.cu $S/scan_block.smt --size N=256
run vec_add_f16 $S/vec_add_f16.cu $S/vec_add_f16.smt --size N=$N1
run row_sum_bf16 $S/row_sum_bf16.cu $S/row_sum_bf16.smt --size R=$N2 C=$N2
# A correct kernel proven only up to a size: refused, then run with --unverified.
run scan_bounded_refused tests/kernels/scan_two_barriers.cu $S/scan_block.smt --size N=256
run scan_bounded_unverified tests/kernels/scan_two_barriers.cu $S/scan_block.smt --size N=256 --unverified
rm -f "$O/cur.json" "$O/cur.err"
date -u
