// ksynth:spec scale_grid_stride expect=coverage
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
// Bug: the vector loop starts one float4 late (i = tid + 1): Y[0..3] are never written.
__global__ void scale_grid_stride_f4_sized(const float *__restrict__ X, float *__restrict__ Y, float alpha, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n4 = N / 4;
  for (int i = tid + 1; i < n4; i += stride) {
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
