// ksynth:launch grid=((N + 255) / 256) block=(256)
// Never finishes: the runner's watchdog must kill it (run with --unverified).
__global__ void vec_add(const float *A, const float *B, float *C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    C[i] = A[i] + B[i];
    while (true)
      atomicAdd(&C[i], 0.0f);
  }
}
