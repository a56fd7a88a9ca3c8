// ksynth:spec row_max
// ksynth:launch grid=(R) block=(256)
// A block per row: each thread keeps the running max of a strided slice, each warp combines
// its lanes' maxima by a butterfly, lane 0 of each warp leaves it in shared memory, and warp 0
// combines the 8 warp maxima the same way.
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
    m = lane < 8 ? part[lane] : -3.402823466e+38f;
    for (int off = 16; off > 0; off >>= 1)
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (lane == 0)
      Y[r] = m;
  }
}
