// expect: refuted bounds
// args: --block 128 --grid 4
// note: the table has one entry fewer than Op has values: op == MUL reads past it
enum Op { ADD, SUB, MUL };
__global__ void apply(const float *x, float *y, int n, Op op) {
  __requires(__len(x) >= n && __len(y) >= n);
  const float scale[2] = {1.0f, -1.0f};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scale[op] * x[i];
}
