// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the slot comes from a field of sample()'s result, which has no body: two threads may
// note: get one slot or not, and ksynth must not refute on a value it made up (nor prove)
struct Pair {
  float v;
  int slot;
};
__device__ Pair sample(int i);

__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  Pair p = sample(threadIdx.x);
  if (p.slot >= 0 && p.slot < 64)
    out[p.slot] = p.v;
}
