// ksynth:launch grid=((N + 255) / 256) block=(256)
// A result cached across calls: only the first launch computes C; later launches return at
// once, so C still holds the first call's sums (or poison). Fresh inputs in every repeat
// must catch it.
__device__ int computed = 0;
__global__ void vec_add(const float *A, const float *B, float *C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (computed)
    return;
  if (i < N)
    C[i] = A[i] + B[i];
  if (i == 0)
    computed = 1;
}
