// ksynth:spec softmax expect=coverage
// ksynth:launch grid=((R + 7) / 8) block=(256)
// Bug: the lane is threadIdx.x, not threadIdx.x % 32: warps past the first start their slices
// past column 31 and leave the row's first columns unwritten.
#include <cfloat>
__global__ void softmax_online_warp8(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x * 8 + threadIdx.x / 32;
  int lane = threadIdx.x;
  if (r >= R)
    return;
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
