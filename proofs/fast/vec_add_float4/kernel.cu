// ksynth:spec vec_add
// ksynth:launch grid=((N + 1023) / 1024) block=(256)
// Four elements per thread through float4 (128-bit loads and stores); a scalar tail.
__global__ void vec_add_f4(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    float4 a = *reinterpret_cast<const float4 *>(A + i);
    float4 b = *reinterpret_cast<const float4 *>(B + i);
    float4 c;
    c.x = a.x + b.x;
    c.y = a.y + b.y;
    c.z = a.z + b.z;
    c.w = a.w + b.w;
    *reinterpret_cast<float4 *>(C + i) = c;
  } else {
    for (int j = i; j < N; ++j)
      C[j] = A[j] + B[j];
  }
}
