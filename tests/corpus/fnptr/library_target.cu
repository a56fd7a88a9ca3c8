// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: f may be cosf, which has no body ksynth can inline: a call through f is not modelled
__device__ float square(float x) { return x * x; }
typedef float (*fn_t)(float);

__global__ void k(float *v, int which) {
  __requires(__len(v) >= 64);
  fn_t f = which ? square : cosf;
  v[threadIdx.x] = f(v[threadIdx.x]);
}
