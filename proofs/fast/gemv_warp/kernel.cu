// ksynth:spec gemv
// ksynth:launch grid=(M) block=(32)
// One warp per row: lanes stride over the row's dot product, a __shfl_xor_sync butterfly
// adds the 32 partial sums, lane 0 writes.
__global__ void gemv_warp(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y, int M,
                          int N) {
  int i = blockIdx.x;
  int lane = threadIdx.x;
  float acc = 0.0f;
  for (int j = lane; j < N; j += 32)
    acc += A[i * N + j] * x[j];
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_xor_sync(0xffffffffu, acc, off);
  if (lane == 0)
    y[i] = acc;
}
