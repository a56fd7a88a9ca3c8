// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: sample() has no body and returns a struct: each field is some value, and here they
// note: only choose whether a thread writes its own slot and what it writes
struct Pair {
  float v;
  int keep;
};
__device__ Pair sample(int i);

__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  Pair p = sample(threadIdx.x);
  if (p.keep)
    out[threadIdx.x] = p.v;
}
