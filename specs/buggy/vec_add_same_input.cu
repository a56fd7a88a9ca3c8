// ksynth:spec vec_add expect=equivalence
// ksynth:launch grid=((N + 255) / 256) block=(256)
// Buggy twin of vec_add: adds A to itself.
__global__ void vec_add(const float *A, const float *B, float *C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    C[i] = A[i] + A[i];
}
