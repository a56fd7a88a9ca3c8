// expect: refuted bounds
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: hi is one too large: thread 63 reads in[66], one past what is declared
struct Window {
  int lo, hi;
  float w[3];
};

__global__ void gather(const float *in, float *out) {
  __requires(__len(in) >= 66 && __len(out) >= 64);
  Window w;
  w.lo = threadIdx.x;
  w.hi = threadIdx.x + 4;
  for (int k = 0; k < 3; ++k)
    w.w[k] = 1.0f;
  Window c = w;
  float acc = 0.0f;
  for (int j = c.lo; j < c.hi; ++j)
    acc += in[j];
  out[threadIdx.x] = acc;
}
