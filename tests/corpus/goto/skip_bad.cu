// expect: refuted barrier
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: odd threads jump over the __syncthreads that even threads execute
__global__ void k(int *out) {
  __requires(__len(out) >= 64);
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x % 2)
    goto skip;
  __syncthreads();
skip:
  out[threadIdx.x] = s[threadIdx.x];
}
