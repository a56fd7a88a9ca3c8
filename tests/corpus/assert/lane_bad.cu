// expect: refuted assert
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: threads 224..255 are in warp 7
__global__ void lanes(int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= n);
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  __assert(lane < 32);
  __assert(warp < 7);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = lane;
}
