// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: x is declared without a value but assigned on every path before use
__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  __shared__ float s[64];
  int x;
  if (threadIdx.x % 2 == 0)
    x = threadIdx.x;
  else
    x = 64 - threadIdx.x;
  s[x % 64] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
