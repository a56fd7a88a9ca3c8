// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: odd threads fill s1, even threads s2 (through a pointer chosen between the two
// arrays); after the barrier everyone reads s1
__global__ void k(int *o) {
  __requires(__len(o) >= 64);
  __shared__ int s1[32], s2[32];
  int *p = (threadIdx.x & 1) ? s1 : s2;
  p[threadIdx.x / 2] = 1;
  __syncthreads();
  o[threadIdx.x] = s1[threadIdx.x / 2];
}
