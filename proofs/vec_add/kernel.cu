// ksynth:launch grid=((N + 255) / 256) block=(256)
// One thread per element, guarded.
__global__ void vec_add(const float *A, const float *B, float *C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    C[i] = A[i] + B[i];
}
