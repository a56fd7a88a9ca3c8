// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void even_odd(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (t % 2 == 0) {
    s[t] = v;
  } else {
    s[t] = -v;
  }
  __syncthreads();
  if (i < n)
    out[i] = s[255 - t];
}
