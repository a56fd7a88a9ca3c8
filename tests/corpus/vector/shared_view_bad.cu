// expect: refuted align
// args: --block 64
// note: a __shared__ float array is only guaranteed 4-byte alignment: its float4 view may fault (declare it __align__(16))
__global__ void stage4(const float *x, float *y) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(gridDim.x <= 1024);
  __requires(__len(x) >= 256 * gridDim.x && __len(y) >= 256 * gridDim.x);
  __shared__ float s[256];
  int t = threadIdx.x, b = blockIdx.x * 256;
  for (int k = 0; k < 4; ++k)
    s[t + 64 * k] = x[b + t + 64 * k];
  __syncthreads();
  float4 v = reinterpret_cast<const float4 *>(s)[t];
  y[b + 4 * t] = v.w;
  y[b + 4 * t + 1] = v.z;
  y[b + 4 * t + 2] = v.y;
  y[b + 4 * t + 3] = v.x;
}
