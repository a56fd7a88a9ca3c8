// expect: refuted race
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: twin of not_equal_test_ok.cu: the tail starts at n - 1, the last cell the loop reads: with n = 1, thread 0 writes out[0] while thread 1 reads it
__global__ void prefix_then_tail(float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 1 && n <= 1000000 && gridDim.x <= 1000);
  __requires(__len(out) >= n + 64 * gridDim.x);
  float f = 0.0f;
  for (int j = 0; j != n; j++)
    f += out[j];
  out[n - 1 + blockIdx.x * 64 + threadIdx.x] = f;
}
