// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void load_pairs(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  s[2 * t] = v;
  s[2 * t + 1] = -v;
  __syncthreads();
  if (i < n)
    out[i] = s[2 * t + 1] + s[(2 * t + 2) % 512];
}
