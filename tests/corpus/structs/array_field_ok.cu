// expect: proven
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: each thread sums and clears the bins of its own histogram, ps[i].bins[0..7]
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
    for (int b = 0; b < 8; ++b) {
      s += ps[i].bins[b];
      ps[i].bins[b] = 0.0f;
    }
    ps[i].count = 0;
    out[i] = s;
  }
}
