// ksynth:spec argmax_rows
// ksynth:launch grid=(R) block=(32)
// One warp per row: each lane keeps the best (value, column) of a strided slice of the row
// (the first of equal values: its columns grow), then a __shfl_xor_sync butterfly exchanges
// both and keeps the larger value, or the smaller column of equal values, so every lane ends
// with the row's first argmax; lane 0 writes it. A lane's start (-FLT_MAX, lane) is no better
// than its first element (lane < C) or than column 0 of the row (lane >= C).
#include <cfloat>

__global__ void argmax_warp(const float *__restrict__ X, int *__restrict__ I, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float bv = -FLT_MAX;
  int bi = lane;
  for (int c = lane; c < C; c += 32) {
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
  if (lane == 0)
    I[r] = bi;
}
