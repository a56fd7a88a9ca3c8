// expect: refuted barrier
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: per-thread trip count: with n = 1 thread 0 runs one iteration (and its barrier),
// note: threads 1..255 run none
__global__ void sum_tiles(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 1 << 30);
  __requires(__len(in) >= n);
  __requires(__len(out) >= 256);
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int j = t; j < n; j += 256) {
    s[t] = in[j];
    __syncthreads();
    acc += s[255 - t];
    __syncthreads();
  }
  if (blockIdx.x == 0)
    out[t] = acc;
}
