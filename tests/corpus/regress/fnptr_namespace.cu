// expect: refuted race
// args: --block 64 --grid 1 --checks race
// note: regression (review): functions in namespaces were not dispatch targets; with f == nn::zero every thread writes o[0]
__device__ int ident(int x) { return x; }
namespace nn { __device__ int zero(int x) { return 0; } }
typedef int (*fn)(int);
__global__ void k(int *o, fn f) {
  __requires(__len(o) >= 64);
  __requires(f != 0);
  o[f(threadIdx.x)] = 1;
}
