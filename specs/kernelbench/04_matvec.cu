// ksynth:launch grid=(M) block=(256)
// KernelBench 4: one block of 256 per row of A, each thread a strided partial dot product,
// then a shared-memory tree. A has M K >= 2^31 elements at KernelBench's sizes: the row
// offset is a 64-bit product; K <= 2^31 - 1 - 256 (assumed) so that k + blockDim.x fits an int.
__global__ void kb04_matvec(const float *A, const float *B, float *C, int M, int K) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x;
  float acc = 0.0f;
  for (int k = t; k < K; k += blockDim.x)
    acc += A[(long long)i * K + k] * B[k];
  red[t] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    __syncthreads();
  }
  if (t == 0)
    C[i] = red[0];
}
