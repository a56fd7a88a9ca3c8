// ksynth:spec argmax_rows
// ksynth:launch grid=(R) block=(256)
// A block per row: each thread keeps the best (value, column) of a strided slice of the row
// (the first of equal values: its columns grow), each warp combines its lanes' pairs by a
// __shfl_xor_sync butterfly (the larger value, or the smaller column of equal values), lane 0
// of each warp leaves its warp's pair in shared memory, and warp 0 combines the 8 pairs the
// same way; lane 0 writes the row's first argmax. A start (-FLT_MAX, column >= 0) is no
// better than column 0 of the row, as are warp 0's padding lanes (-FLT_MAX, lane).
#include <cfloat>

__global__ void argmax_block(const float *__restrict__ X, int *__restrict__ I, int R, int C) {
  __shared__ float pv[8];
  __shared__ int pi[8];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float bv = -FLT_MAX;
  int bi = threadIdx.x;
  for (int c = threadIdx.x; c < C; c += 256) {
    float v = X[r * C + c];
    if (v > bv) {
      bv = v;
      bi = c;
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    float ov = __shfl_xor_sync(0xffffffffu, bv, off);
    int oi = __shfl_xor_sync(0xffffffffu, bi, off);
    if (ov > bv || (ov == bv && oi < bi)) {
      bv = ov;
      bi = oi;
    }
  }
  if (lane == 0) {
    pv[warp] = bv;
    pi[warp] = bi;
  }
  __syncthreads();
  if (warp == 0) {
    bv = lane < 8 ? pv[lane] : -FLT_MAX;
    bi = lane < 8 ? pi[lane] : lane;
    for (int off = 16; off > 0; off >>= 1) {
      float ov = __shfl_xor_sync(0xffffffffu, bv, off);
      int oi = __shfl_xor_sync(0xffffffffu, bi, off);
      if (ov > bv || (ov == bv && oi < bi)) {
        bv = ov;
        bi = oi;
      }
    }
    if (lane == 0)
      I[r] = bi;
  }
}
