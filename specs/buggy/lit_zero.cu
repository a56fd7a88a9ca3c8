// ksynth:spec lit expect=equivalence
// Found by review: spec constants are exact (1.00000001 is not rounded to 1.0 on the spec side), so storing 0 is not the spec's value.
// ksynth:launch grid=((N + 127) / 128) block=(128)
// The spec's value is X[i] over the reals; this kernel stores 0.
__global__ void lit(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) Y[i] = 0.0f;
}
