// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void fill_count(int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= n);
  int c = 0;
  for (int k = 0; k < 10; k++)
    c += 2;
  __assert(c == 20);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = c;
}
