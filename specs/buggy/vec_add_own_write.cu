// ksynth:spec vec_add expect=equivalence
// ksynth:launch grid=((N + 255) / 256) block=(256)
// Buggy twin of vec_add: the thread stores to its shared cell twice in one interval and reads
// it back, so the value read is its own second store (A only), not the interval's start.
__global__ void vec_add(const float *A, const float *B, float *C, int N) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < N ? A[i] + B[i] : 0.0f;
  __syncthreads();
  s[t] = i < N ? A[i] : 0.0f;
  if (i < N)
    C[i] = s[t];
}
