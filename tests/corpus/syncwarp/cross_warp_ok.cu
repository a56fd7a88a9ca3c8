// expect: proven
// args: --block 64 --checks race,barrier,bounds,overflow,assert
__global__ void rotate_half(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[(t + 32) % 64];
}
