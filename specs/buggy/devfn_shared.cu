// ksynth:spec copy1d2 expect=equivalence
// Found by review: two device functions with shared arrays of the same name are different arrays.
// ksynth:launch grid=((N + 255) / 256) block=(256)
// Two helpers each with their own `__shared__ float buf[256]` (distinct arrays in CUDA).
__device__ void fill(float *dst, float v) {
  __shared__ float buf[256];
  buf[threadIdx.x] = v;
  __syncthreads();
  *dst = buf[threadIdx.x];
}
__device__ void zero(float *dst) {
  __shared__ float buf[256];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  *dst = buf[threadIdx.x];
}
__global__ void devfn_shared(const float *A, float *C, float *D, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = i < N ? A[i] : 0.0f;
  float x, y;
  fill(&x, a);
  zero(&y);
  if (i < N) {
    D[i] = x;
    C[i] = y;
  }
}
