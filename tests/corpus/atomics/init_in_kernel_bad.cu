// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: thread 0 clears sum[0] with a plain store while thread 1 (or any other block) adds
// note: atomically: the plain store races with the atomics
__global__ void sum_all(const float *in, float *sum, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(sum) >= 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0)
    sum[0] = 0.0f;
  if (i < n)
    atomicAdd(&sum[0], in[i]);
}
