// expect: proven
// args: --block 128 --grid 4
// note: an enum parameter holds one of its declared values (0..2): the 3-entry table is in bounds
enum Op { ADD, SUB, MUL };
__global__ void apply(const float *x, float *y, int n, Op op) {
  __requires(__len(x) >= n && __len(y) >= n);
  const float scale[3] = {1.0f, -1.0f, 2.0f};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scale[op] * x[i];
}
