// expect: proven
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: a loop with test j != n counting down from 8 stops at n because n <= 8: it reads out[n + 1] .. out[8], cells no thread writes
__global__ void walk_down(float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && gridDim.x == 1);
  __requires(n >= 0 && n <= 8);
  __requires(__len(out) >= 128);
  float f = 0.0f;
  for (int j = 8; j != n; j--)
    f += out[j];
  out[64 + threadIdx.x] = f;
}
