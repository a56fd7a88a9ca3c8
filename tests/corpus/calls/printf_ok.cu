// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: device printf of a shared value after the barrier: it reads its arguments, writes nothing
__global__ void report(const float *x) {
  __requires(__len(x) >= 64);
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    printf("first %f last %f\n", s[0], s[63]);
}
