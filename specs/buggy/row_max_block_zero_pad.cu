// ksynth:spec row_max expect=equivalence
// ksynth:launch grid=(R) block=(256)
// Bug: warp 0's lanes past the 8 warps start at 0, not -FLT_MAX: a row of negative numbers gets max 0.
__global__ void row_max_block(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  __shared__ float part[8];
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float m = -3.402823466e+38f; // -FLT_MAX: below every finite float
  for (int c = threadIdx.x; c < C; c += 256)
    m = fmaxf(m, X[r * C + c]);
  for (int off = 16; off > 0; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (lane == 0)
    part[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < 8 ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (lane == 0)
      Y[r] = m;
  }
}
