// expect: refuted barrier
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: two textually different barriers, each reached by only half of the block
// note: (CUDA requires the condition around __syncthreads() to be block-uniform)
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
    __syncthreads();
  } else {
    s[t] = -v;
    __syncthreads();
  }
  if (i < n)
    out[i] = s[255 - t];
}
