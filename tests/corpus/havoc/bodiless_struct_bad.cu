// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: sample() has no body and returns a struct: each field is some value, and here they
// note: choose what is written; threads 0 and 1 both write out[0] whatever they are
struct Pair {
  float v;
  int keep;
};
__device__ Pair sample(int i);

__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  Pair p = sample(threadIdx.x);
  out[threadIdx.x / 2] = p.v;
}
