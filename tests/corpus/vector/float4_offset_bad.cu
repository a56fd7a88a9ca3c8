// expect: refuted align
// args: --block 256
// note: the view starts one float past a 16-byte boundary: thread 0 casts x + 1, not a multiple of 16 bytes
__global__ void shift4(const float *x, float *y, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(x) >= n + 1 && __len(y) >= n);
  __requires(n <= 1 << 28 && gridDim.x <= 1 << 20);
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    float4 v = *reinterpret_cast<const float4 *>(x + i + 1);
    *reinterpret_cast<float4 *>(y + i) = v;
  }
}
