// expect: refuted overflow
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// known-bug: unknown, not refuted: a wrapping induction variable makes the loop summary invalid and ksynth stops at unknown
// note: same loop as the ok twin, but gridDim.x is symbolic: with n = 2^30 and a grid of
// note: 2^23 - 1 blocks (stride 2^31 - 256), thread 2^30 - 1 computes i + stride > INT_MAX
// note: and converting it back to int changes its value
__global__ void scale(float *a, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n <= 1 << 30);
  __requires(__len(a) >= n);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = 2.0f * a[i];
}
