// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void lanes(int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= n);
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  __assert(lane < 32);
  __assert(warp < 8);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = lane;
}
