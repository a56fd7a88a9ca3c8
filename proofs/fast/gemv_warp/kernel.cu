// ksynth:spec gemv
// ksynth:launch grid=((M + 7) / 8) block=(256)
// One warp per row, eight rows per block: lanes stride over the row's dot product, a
// __shfl_xor_sync butterfly adds the 32 partial sums, lane 0 writes.
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
