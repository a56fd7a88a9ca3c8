// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the helper stores v / 2 through the pointer: threads 0 and 1 both write out[0]
__device__ void setTo(int *p, int v) { *p = v / 2; }

__global__ void k(int *out) {
  __requires(__len(out) >= 64);
  int a;
  setTo(&a, threadIdx.x);
  out[a] = 1;
}
