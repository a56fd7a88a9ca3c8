// expect: refuted race
// args: --block 128 --checks race,barrier,overflow,assert
// note: the loop runs to b <= 8, and ps[i].bins[8] is ps[i + 1].bins[0] in memory: thread 0 writes
// note: it while thread 1 reads it (n = 2)
struct Hist {
  float bins[8];
};

__global__ void flush(Hist *ps, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int b = 0; b <= 8; ++b) {
      s += ps[i].bins[b];
      ps[i].bins[b] = 0.0f;
    }
    out[i] = s;
  }
}
