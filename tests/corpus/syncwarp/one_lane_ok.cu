// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the condition selects whole warps (threadIdx.x < 32), so every lane of a warp agrees
__global__ void k(int *o) {
  __requires(__len(o) >= 64);
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  if (threadIdx.x < 32)
    __syncwarp();
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x ^ 32];
}
