// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: a device function returns a flag and its result through a reference, with an early return
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
    out[i] = row;
}
