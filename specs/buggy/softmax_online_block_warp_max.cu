// ksynth:spec softmax expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Bug: each thread subtracts its own warp's max, not the row's, while dividing by the row's
// denominator.
#include <cfloat>
__global__ void softmax_online_block(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  __shared__ float pm[8], pd[8];
  __shared__ float tm, td;
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const float *x = X + r * C;
  float m = -FLT_MAX, d = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256) {
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
  if (lane == 0) {
    pm[warp] = m;
    pd[warp] = d;
  }
  __syncthreads();
  if (warp == 0) {
    float wm = lane < 8 ? pm[lane] : -FLT_MAX;
    float wd = lane < 8 ? pd[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) {
      float mo = __shfl_xor_sync(0xffffffffu, wm, off);
      float dO = __shfl_xor_sync(0xffffffffu, wd, off);
      float mn = fmaxf(wm, mo);
      wd = wd * __expf(wm - mn) + dO * __expf(mo - mn);
      wm = mn;
    }
    if (lane == 0) {
      tm = wm;
      td = wd;
    }
  }
  __syncthreads();
  float M = m, inv = 1.0f / td;
  for (int c = threadIdx.x; c < C; c += 256)
    Y[r * C + c] = __expf(x[c] - M) * inv;
}
