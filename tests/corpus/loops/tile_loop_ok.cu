// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void total(const float *x, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 1 << 30);
  __requires(__len(x) >= n);
  __requires(__len(out) >= 1);
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; k += 256) {
    s[t] = k + t < n ? x[k + t] : 0.0f;
    __syncthreads();
    if (t == 0)
      for (int j = 0; j < 256; j++)
        acc += s[j];
    __syncthreads();
  }
  if (t == 0 && blockIdx.x == 0)
    out[0] = acc;
}
