// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void relax(const float *in, float *out, int n, int iters) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int k = 0; k < iters; k++) {
    s[t] = v;
    __syncthreads();
    v = 0.5f * (v + s[(t + 1) % 256]);
    __syncthreads();
  }
  if (i < n)
    out[i] = v;
}
