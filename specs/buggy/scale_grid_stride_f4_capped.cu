// ksynth:spec scale_grid_stride expect=coverage
// ksynth:launch grid=(264) block=(256)
// Bug: the float4 loop stops at a fixed 200000 float4s (a buffer size left from a test): past
// element 800000 nothing is written. Tests at small sizes pass; the proof's example size shows it.
__global__ void scale_grid_stride_f4(const float *__restrict__ X, float *__restrict__ Y, float alpha, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n4 = N / 4;
  const float4 *X4 = reinterpret_cast<const float4 *>(X);
  float4 *Y4 = reinterpret_cast<float4 *>(Y);
  int lim = n4 < 200000 ? n4 : 200000;
  for (int i = tid; i < lim; i += stride) {
    float4 v = X4[i];
    v.x *= alpha;
    v.y *= alpha;
    v.z *= alpha;
    v.w *= alpha;
    Y4[i] = v;
  }
  for (int i = tid; i < N - 4 * n4; i += stride)
    Y[4 * n4 + i] = alpha * X[4 * n4 + i];
}
