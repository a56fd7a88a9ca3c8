// ksynth:spec softmax expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: the running max starts at -INFINITY (the fast kernel: -FLT_MAX). A lane with no
// element of its row (C < 32) keeps m = -inf and d = 0, and merging two such lanes computes
// -inf - (-inf), NaN in IEEE arithmetic: d becomes 0 * NaN, the row NaN (over the reals it
// would cancel). Before INFINITY was read as its value, this was unknown (a made-up value).
#include <cfloat>
__global__ void softmax_online_warp(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  const float *x = X + r * C;
  float m = -INFINITY, d = 0.0f;
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
