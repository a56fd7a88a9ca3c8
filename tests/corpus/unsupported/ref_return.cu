// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds
// note: a function returning a reference is not modelled: unknown, naming the call
__device__ int &pick(int *A, int i) { return A[i]; }
__global__ void setAll(int *Z) {
  __requires(__len(Z) >= 64);
  pick(Z, threadIdx.x) = 1;
}
