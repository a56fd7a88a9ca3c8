// expect: refuted race
// args: --block 32 --checks race,barrier,bounds,overflow,assert
// note: no lock-step warps are assumed: without __syncwarp() thread 0 reads s[1] while
// note: thread 1 writes it
__global__ void swap_pairs(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[32];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  if (i < n)
    out[i] = s[t ^ 1];
}
