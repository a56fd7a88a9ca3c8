// expect: refuted overflow
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: with n = 2^31 - 1 the stride reaches 2^30 < n and doubles to 2^31: signed overflow
__global__ void k(float *a, int n) {
  __requires(__len(a) >= 64);
  for (int d = 1; d < n; d *= 2)
    a[threadIdx.x] += 1.0f;
}
