// ksynth:spec row_sum expect=equivalence
// Found by review (crashed the prover): the loop counter is bumped inside the body as well.
// ksynth:launch grid=((R + 127) / 128) block=(128)
__global__ void row_sum(const float *X, float *Y, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R) {
    float acc = 0.0f;
    for (int c = 0; c < C; ++c) { acc += X[r * C + c]; if (c == 1) c++; }
    Y[r] = acc;
  }
}
