// expect: proven
// args: --checks race,barrier,bounds
/*
 * GPUVerify's options in the leading comment block, after a licence and a note: ksynth
 * verifies at that launch (8x8 threads in 2x2 blocks) with its -D definition.
 */
//--blockDim=[8,8] --gridDim=[2,2] --no-inline -DWIDTH=16
__global__ void fill(int *A) {
  __requires(__len(A) >= WIDTH * WIDTH);
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  A[y * WIDTH + x] = x + y;
}
