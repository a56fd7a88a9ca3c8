// expect: proven
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: a loop whose test is j != n reads out[0] .. out[n - 1] (n >= 0: it stops at n); every thread then writes its own cell past n, so no read meets a write
__global__ void prefix_then_tail(float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n <= 1000000 && gridDim.x <= 1000);
  __requires(__len(out) >= n + 64 * gridDim.x);
  float f = 0.0f;
  for (int j = 0; j != n; j++)
    f += out[j];
  out[n + blockIdx.x * 64 + threadIdx.x] = f;
}
