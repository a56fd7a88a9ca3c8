// ksynth:spec scale_grid_stride
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
// The form language models write most: a grid sized by N (a float4 per thread) and, for
// safety, a grid-stride loop anyway. The stride blockDim.x * gridDim.x grows with N, so the
// loop has no closed trip count; its test is monotone in the iteration all the same. Indices
// stay below N / 4 + stride (no wrap-around for any N the spec admits); the N % 4 elements
// after the last float4 are a second loop relative to the vector part.
__global__ void scale_grid_stride_f4_sized(const float *__restrict__ X, float *__restrict__ Y, float alpha, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n4 = N / 4;
  for (int i = tid; i < n4; i += stride) {
    float4 v = reinterpret_cast<const float4 *>(X)[i];
    v.x *= alpha;
    v.y *= alpha;
    v.z *= alpha;
    v.w *= alpha;
    reinterpret_cast<float4 *>(Y)[i] = v;
  }
  for (int i = tid; i < N - 4 * n4; i += stride)
    Y[4 * n4 + i] = alpha * X[4 * n4 + i];
}
