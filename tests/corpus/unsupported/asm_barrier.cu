// expect: unknown
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the barrier is inline PTX bar.sync 0 (what __syncthreads() compiles to); a tool
// note: that ignores the asm would report a false race, one that does not model it must
// note: say unknown
__global__ void reverse_block(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  asm volatile("bar.sync 0;" ::: "memory");
  if (i < n)
    out[i] = s[255 - t];
}
