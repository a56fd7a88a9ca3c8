// ksynth:spec argmax_rows expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Bug: warp 0 combines only the first 7 warps' pairs: columns whose slice is warp 7's are never
// candidates.
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
    bv = lane < 7 ? pv[lane] : -FLT_MAX;
    bi = lane < 7 ? pi[lane] : lane;
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
