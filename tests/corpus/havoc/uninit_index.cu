// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: x is never initialised, so s[x] may be anywhere; ksynth must not assume x == 0
__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  __shared__ float s[64];
  int x;
  s[x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
