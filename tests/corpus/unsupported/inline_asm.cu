// expect: unknown
// args: --block 32 --checks race,barrier,bounds,overflow,assert
// note: the index is read from %laneid by inline PTX (equals threadIdx.x for a 32-thread
// note: block, so the kernel is safe, but asm is opaque)
__global__ void lane_copy(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float s[32];
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[lane] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[31 - threadIdx.x];
}
