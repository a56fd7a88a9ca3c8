// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void block_scan(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int off = 1; off < 256; off <<= 1) {
    float v = 0.0f;
    if (t >= off)
      v = s[t - off];
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (i < n)
    out[i] = s[t];
}
