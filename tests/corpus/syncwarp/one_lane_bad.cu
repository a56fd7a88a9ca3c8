// expect: refuted barrier
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: only lane 0 of warp 0 reaches this __syncwarp(); lanes 1..31 never do
__global__ void k(int *o) {
  __requires(__len(o) >= 64);
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  if (threadIdx.x == 0)
    __syncwarp();
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x ^ 32];
}
