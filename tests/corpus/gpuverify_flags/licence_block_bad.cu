// expect: refuted race bounds
// args: --checks race,barrier,bounds
/*
 * The flag line's grid is wider than WIDTH: threads of the second block column write past the
 * row and into the next one.
 */
//--blockDim=[8,8] --gridDim=[3,2] --no-inline -DWIDTH=16
__global__ void fill(int *A) {
  __requires(__len(A) >= WIDTH * WIDTH);
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  A[y * WIDTH + x] = x + y;
}
