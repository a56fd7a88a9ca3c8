// ksynth:spec saxpy
// ksynth:launch grid=((N + 511) / 512) block=(128)
// Four elements per thread through float4, each a fused multiply-add; a scalar tail.
__global__ void saxpy_f4(int N, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < N) {
    float4 xv = *reinterpret_cast<const float4 *>(x + i);
    float4 yv = *reinterpret_cast<float4 *>(y + i);
    yv.x = fmaf(a, xv.x, yv.x);
    yv.y = fmaf(a, xv.y, yv.y);
    yv.z = fmaf(a, xv.z, yv.z);
    yv.w = fmaf(a, xv.w, yv.w);
    *reinterpret_cast<float4 *>(y + i) = yv;
  } else {
    for (int j = i; j < N; ++j)
      y[j] = fmaf(a, x[j], y[j]);
  }
}
