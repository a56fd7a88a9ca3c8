// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a local struct (with an array field) is built, copied whole, and its scalar fields
// bound a loop over the input
struct Window {
  int lo, hi;
  float w[3];
};

__global__ void gather(const float *in, float *out) {
  __requires(__len(in) >= 66 && __len(out) >= 64);
  Window w;
  w.lo = threadIdx.x;
  w.hi = threadIdx.x + 3;
  for (int k = 0; k < 3; ++k)
    w.w[k] = 1.0f;
  Window c = w;
  float acc = 0.0f;
  for (int j = c.lo; j < c.hi; ++j)
    acc += c.w[j - c.lo] * in[j];
  out[threadIdx.x] = acc;
}
