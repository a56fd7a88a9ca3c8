// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the result written through the reference is used as the store index: threads 0 and 1
// note: of a 2-column matrix both get row 0 and write out[0]
__device__ bool rowOf(int i, int cols, int &row) {
  if (cols <= 0)
    return false;
  row = i / cols;
  return true;
}
__global__ void rowIds(int *out, int n, int cols) {
  __requires(__len(out) >= n && gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int row = 0;
  if (i < n && rowOf(i, cols, row))
    out[row] = i;
}
