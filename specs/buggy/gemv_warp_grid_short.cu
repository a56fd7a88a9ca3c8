// ksynth:spec gemv expect=coverage
// ksynth:launch grid=((M + 15) / 16) block=(256)
// Bug: the grid is sized for sixteen rows per block, but each block of eight warps covers
// eight rows: half of the rows are never written.
__global__ void gemv_warp(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y, int M,
                          int N) {
  int lane = threadIdx.x % 32;
  int i = blockIdx.x * 8 + threadIdx.x / 32;
  if (i >= M)
    return;
  float acc = 0.0f;
  for (int j = lane; j < N; j += 32)
    acc += A[i * N + j] * x[j];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_xor_sync(0xffffffffu, acc, off);
  if (lane == 0)
    y[i] = acc;
}
