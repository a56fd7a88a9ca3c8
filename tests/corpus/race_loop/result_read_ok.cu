// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void normalise(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  for (int st = 128; st > 0; st >>= 1) {
    __syncthreads();
    if (t < st)
      s[t] += s[t + st];
  }
  __syncthreads();
  if (i < n)
    out[i] = s[0];
}
