// expect: refuted race
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: the loop runs to b <= 8, and ps[i].bins[8] is ps[i + 1].bins[0] in memory: thread 0 writes it while thread 1 reads it (n = 2); at n = 1 it is past the end of ps
struct Hist {
  int count;
  float bins[8];
};

__global__ void flush(Hist *ps, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  __requires(__len(ps) >= n && __len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int b = 0; b <= 8; ++b) {
      s += ps[i].bins[b];
      ps[i].bins[b] = 0.0f;
    }
    ps[i].count = 0;
    out[i] = s;
  }
}
