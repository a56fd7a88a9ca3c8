// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds
// note: an overloaded operator[] inside float arithmetic: unknown, naming it (it once left an
// integer stand-in in a float subtraction, and the symbolic executor aborted)
struct Vec8 {
  float v[8];
  __device__ float &operator[](int i) { return v[i]; }
};
__global__ void shifted(float *out, const float *in, float offset) {
  __requires(__len(out) >= 512 && __len(in) >= 512);
  Vec8 p;
  for (int k = 0; k < 8; ++k)
    p.v[k] = in[threadIdx.x * 8 + k];
  for (int k = 0; k < 8; ++k)
    out[threadIdx.x * 8 + k] = expf(p[k] - offset) * 2.0f;
}
