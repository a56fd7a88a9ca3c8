// expect: proven
// args: --block 256
// note: the twin of float4_offset_bad.cu: the view starts at a multiple of 4 floats (x + i + 4)
__global__ void shift4(const float *x, float *y, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n + 4 && __len(y) >= n);
  __requires(n <= 1 << 28 && gridDim.x <= 1 << 20);
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    float4 v = *reinterpret_cast<const float4 *>(x + i + 4);
    *reinterpret_cast<float4 *>(y + i) = v;
  }
}
