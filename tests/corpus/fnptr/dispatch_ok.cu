// expect: proven
// args: --block 128 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the function pointer is one of two helpers, each touching only the thread's element
__device__ float twice(float *v, unsigned i) { return v[i] * 2.0f; }
__device__ float half(float *v, unsigned i) { return v[i] * 0.5f; }
typedef float (*op_t)(float *, unsigned);

__global__ void apply(float *v, float *out, op_t f) {
  __requires(f == twice || f == half);
  __requires(__len(v) >= 128 && __len(out) >= 128);
  out[threadIdx.x] = f(v, threadIdx.x);
}
