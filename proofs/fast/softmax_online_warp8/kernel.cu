// ksynth:spec softmax
// ksynth:launch grid=((R + 7) / 8) block=(256)
// softmax_online_warp with eight rows per block of 256 threads, a warp per row (blocks of one
// warp leave half of an SM's thread slots unused): one pass keeps each lane's running max and
// rescaled sum of exp(x - max) over a strided slice, an xor butterfly merges the lanes' (max,
// sum) pairs, every lane writes its slice. A warp past the last row returns before its first
// shuffle (all its lanes together).
#include <cfloat>
__global__ void softmax_online_warp8(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x * 8 + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
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
