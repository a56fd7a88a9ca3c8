// expect: refuted bounds
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: twin of not_equal_away_ok.cu: n may exceed 8, and then the loop counting down from 8 never meets n: with n = 9 it reads out[-1] after out[0]
__global__ void walk_down(float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && gridDim.x == 1);
  __requires(n >= 0 && n <= 1000);
  __requires(__len(out) >= 128);
  float f = 0.0f;
  for (int j = 8; j != n; j--)
    f += out[j];
  out[64 + threadIdx.x] = f;
}
