// expect: proven
// args: --block 128 --checks race,barrier,overflow,assert
// note: each thread sums and clears the bins of its own histogram, ps[i].bins[0..7]; a struct
// note: that is one array field is modelled as that array's scalars, struct after struct
struct Hist {
  float bins[8];
};

__global__ void flush(Hist *ps, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int b = 0; b < 8; ++b) {
      s += ps[i].bins[b];
      ps[i].bins[b] = 0.0f;
    }
    out[i] = s;
  }
}
