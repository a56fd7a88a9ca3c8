// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a local whose address is taken lives in thread-local memory; its value is tracked
__device__ void setTo(int *p, int v) { *p = v; }

__global__ void k(int *out) {
  __requires(__len(out) >= 64);
  int a;
  setTo(&a, threadIdx.x);
  out[a] = 1;
}
