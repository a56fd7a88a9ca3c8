// expect: refuted assert
// args: --block 128 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: nothing says which function f names: f = null (or any other value) is called
__device__ float twice(float *v, unsigned i) { return v[i] * 2.0f; }
__device__ float half(float *v, unsigned i) { return v[i] * 0.5f; }
typedef float (*op_t)(float *, unsigned);

__global__ void apply(float *v, float *out, op_t f) {
  __requires(__len(v) >= 128 && __len(out) >= 128);
  out[threadIdx.x] = f(v, threadIdx.x);
}
