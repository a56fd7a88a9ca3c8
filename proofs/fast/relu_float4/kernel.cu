// ksynth:spec relu
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
// Four elements per thread through float4 (128-bit loads and stores); a scalar tail.
__global__ void relu_f4(const float *__restrict__ X, float *__restrict__ Y, int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    float4 v = reinterpret_cast<const float4 *>(X)[i / 4];
    v.x = fmaxf(v.x, 0.0f);
    v.y = fmaxf(v.y, 0.0f);
    v.z = fmaxf(v.z, 0.0f);
    v.w = fmaxf(v.w, 0.0f);
    reinterpret_cast<float4 *>(Y)[i / 4] = v;
  } else {
    for (int j = i; j < N; ++j)
      Y[j] = fmaxf(X[j], 0.0f);
  }
}
