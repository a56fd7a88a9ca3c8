// ksynth:spec scale_grid_stride expect=equivalence
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
// Bug: the tail reads the head: Y[4 (N / 4) + i] = alpha X[i].
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
    Y[4 * n4 + i] = alpha * X[i];
}
