// expect: proven
// args: --block 256
// note: four elements per thread through float4 loads and stores, a scalar loop for the tail
__global__ void scale4(const float *x, float *y, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n && __len(y) >= n);
  __requires(n <= 1 << 28 && gridDim.x <= 1 << 20);
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    float4 v = reinterpret_cast<const float4 *>(x)[i / 4];
    v.x *= 2.0f;
    v.y *= 2.0f;
    v.z *= 2.0f;
    v.w *= 2.0f;
    reinterpret_cast<float4 *>(y)[i / 4] = v;
  } else {
    for (int j = i; j < n; ++j)
      y[j] = 2.0f * x[j];
  }
}
