// expect: refuted race
// args: --block 128
// note: the twin of struct_return_ok.cu whose early return gives the first row's cells column 0: threads 0 and 1 both store out[0]
struct Cell {
  int row, col;
};
__device__ Cell cellOf(int t, int width) {
  if (t < width)
    return {0, 0};
  Cell c;
  c.row = t / width;
  c.col = t % width;
  return c;
}
__global__ void fill(float *out, int width) {
  __requires(gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1 && blockDim.y == 1 && blockDim.z == 1);
  __requires(width >= 1 && width <= 1024 && __len(out) >= blockDim.x);
  Cell c = cellOf(threadIdx.x, width);
  out[c.row * width + c.col] = 1.0f;
}
