// expect: refuted race
// args: --block 128 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: one possible target writes v[0] from every thread: with f == clobber, threads 0
// and 1 race
__device__ void own(float *v, unsigned i) { v[i] = 1.0f; }
__device__ void clobber(float *v, unsigned i) { v[0] = 1.0f; }
typedef void (*op_t)(float *, unsigned);

__global__ void apply(float *v, op_t f) {
  __requires(f == own || f == clobber);
  __requires(__len(v) >= 128);
  f(v, threadIdx.x);
}
