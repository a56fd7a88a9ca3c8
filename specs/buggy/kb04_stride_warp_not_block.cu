// ksynth:spec kernelbench/04_matvec expect=equivalence
// Buggy twin of kb04_matvec: the strided loop steps by 32 (a warp) in a block of 256 threads,
// so the threads' slices overlap and most terms are added several times.
// ksynth:launch grid=(M) block=(256)
__global__ void kb04_matvec(const float *A, const float *B, float *C, int M, int K) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x;
  float acc = 0.0f;
  for (int k = t; k < K; k += 32)
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
