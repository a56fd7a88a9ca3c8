// ksynth:spec gelu expect=coverage
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
// Bug: the vector part stops one float4 early (i < n4 - 1) and the tail does not cover it: with N =
// 4, Y[0..3] are never written.
__device__ __forceinline__ float gelu1(float x) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

__global__ void gelu_f4(const float *__restrict__ X, float *__restrict__ Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n4 = N / 4;
  if (i < n4 - 1) {
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
