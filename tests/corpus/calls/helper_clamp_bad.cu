// expect: refuted bounds
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: upper clamp n instead of n - 1: thread i = n - 1 reads in[n]
__device__ int clamp(int x, int lo, int hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

__global__ void blur(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float l = in[clamp(i - 1, 0, n - 1)];
    float r = in[clamp(i + 1, 0, n)];
    out[i] = 0.5f * (l + r);
  }
}
