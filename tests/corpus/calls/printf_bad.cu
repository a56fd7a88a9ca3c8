// expect: refuted race
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: printf reads s[63] before the barrier: thread 63 may not have written it yet
__global__ void report(const float *x) {
  __requires(__len(x) >= 64);
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  if (threadIdx.x == 0)
    printf("first %f last %f\n", s[0], s[63]);
  __syncthreads();
}
