// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the trip count depends only on n, so every thread runs the same iterations
__global__ void sum_tiles(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 1 << 30);
  __requires(__len(in) >= n);
  __requires(__len(out) >= 256);
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int base = 0; base < n; base += 256) {
    s[t] = base + t < n ? in[base + t] : 0.0f;
    __syncthreads();
    acc += s[255 - t];
    __syncthreads();
  }
  if (blockIdx.x == 0)
    out[t] = acc;
}
