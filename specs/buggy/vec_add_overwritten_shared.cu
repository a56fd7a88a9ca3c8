// ksynth:spec vec_add expect=equivalence
// ksynth:launch grid=((N + 255) / 256) block=(256)
// Buggy twin of vec_add: the sum is staged in shared memory, but a later interval overwrites
// the cell before it is read back (the value read is the latest store, not the first).
__global__ void vec_add(const float *A, const float *B, float *C, int N) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < N ? A[i] + B[i] : 0.0f;
  __syncthreads();
  s[255 - t] = 1.0f;
  __syncthreads();
  if (i < N)
    C[i] = s[t];
}
