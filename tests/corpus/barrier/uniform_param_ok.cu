// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: smooth is a kernel parameter, hence uniform: every thread takes the same branch
__global__ void maybe_smooth(const float *in, float *out, int n, int smooth) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (smooth > 4) {
    s[t] = v;
    __syncthreads();
    v = 0.5f * (v + s[(t + 1) % 256]);
  }
  if (i < n)
    out[i] = v;
}
