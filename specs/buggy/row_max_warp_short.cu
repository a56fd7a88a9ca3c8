// ksynth:spec row_max expect=equivalence
// ksynth:launch grid=(R) block=(32)
// Bug: the butterfly stops before offset 1: each lane has the max of its even or odd lanes only.
__global__ void row_max_warp(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  int r = blockIdx.x;
  int lane = threadIdx.x;
  float m = -3.402823466e+38f; // -FLT_MAX: below every finite float
  for (int c = lane; c < C; c += 32)
    m = fmaxf(m, X[r * C + c]);
  for (int off = 16; off > 1; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (lane == 0)
    Y[r] = m;
}
