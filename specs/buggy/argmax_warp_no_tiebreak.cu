// ksynth:spec argmax_rows expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: equal values from two lanes keep the receiving lane's column, which is not always the smaller (lane 0 holds column 32, lane 1 column 1).
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
    if (ov > bv) {
      bv = ov;
      bi = oi;
    }
  }
  if (lane == 0)
    I[r] = bi;
}
