// ksynth:spec softmax
// ksynth:launch grid=(R) block=(32)
// Online softmax, one warp per row: each lane reads its strided slice of the row once,
// keeping a running max m and the sum d of exp(x - m) rescaled whenever m grows; a
// __shfl_xor_sync butterfly merges the lanes' (m, d) pairs, so every lane ends with the
// row's max and denominator after one pass over the row instead of two. Then each lane
// writes its slice.
#include <cfloat>
__global__ void softmax_online_warp(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const float *x = X + r * C;
  float m = -FLT_MAX, d = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float v = x[c];
    float mn = fmaxf(m, v);
    d = d * __expf(m - mn) + __expf(v - mn);
    m = mn;
  }
  for (int off = 16; off > 0; off >>= 1) {
    float mo = __shfl_xor_sync(0xffffffffu, m, off);
    float dO = __shfl_xor_sync(0xffffffffu, d, off);
    float mn = fmaxf(m, mo);
    d = d * __expf(m - mn) + dO * __expf(mo - mn);
    m = mn;
  }
  for (int c = lane; c < C; c += 32)
    Y[r * C + c] = __expf(x[c] - m) / d;
}
