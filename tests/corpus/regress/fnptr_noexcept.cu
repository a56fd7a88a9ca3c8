// expect: refuted race
// args: --block 64 --grid 1 --checks race
// note: regression (review): a noexcept function was left out of the dispatch and its path assumed away; with c == 0 every thread writes o[0]
__device__ int ident(int x) { return x; }
__device__ int zero(int x) noexcept { return 0; }
typedef int (*fn)(int);
__global__ void k(int *o, int c) {
  __requires(__len(o) >= 64);
  fn f = c ? ident : zero;
  o[f(threadIdx.x)] = 1;
}
