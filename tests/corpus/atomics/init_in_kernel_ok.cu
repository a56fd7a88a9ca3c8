// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: sum[0] is cleared by the host before the launch
__global__ void sum_all(const float *in, float *sum, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(sum) >= 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&sum[0], in[i]);
}
