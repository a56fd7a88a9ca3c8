// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: with n <= 2^30 the loop only runs while d < n, so d <= 2^29 and d * 2 <= 2^30
__global__ void k(float *a, int n) {
  __requires(__len(a) >= 64);
  __requires(n <= 1 << 30);
  for (int d = 1; d < n; d *= 2)
    a[threadIdx.x] += 1.0f;
}
