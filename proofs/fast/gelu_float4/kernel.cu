// ksynth:spec gelu
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
// GELU four elements per thread through float4 (128-bit loads and stores) over the first
// 4 (N / 4) elements; thread 0 of the grid does the remaining N % 4 one by one.
__device__ __forceinline__ float gelu1(float x) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

__global__ void gelu_f4(const float *__restrict__ X, float *__restrict__ Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n4 = N / 4;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4 *>(X)[i];
    v.x = gelu1(v.x);
    v.y = gelu1(v.y);
    v.z = gelu1(v.z);
    v.w = gelu1(v.w);
    reinterpret_cast<float4 *>(Y)[i] = v;
  }
  if (i == 0)
    for (int k = 4 * n4; k < N; ++k)
      Y[k] = gelu1(X[k]);
}
