// expect: refuted bounds
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: local array p[8] written at p[8] in the last iteration
__global__ void poly(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p[8];
    float x = in[i];
    p[0] = 1.0f;
    for (int k = 1; k <= 8; k++)
      p[k] = p[k - 1] * x;
    out[i] = p[7];
  }
}
