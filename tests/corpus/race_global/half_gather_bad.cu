// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: threads 0 and 1 both write out[0] (different values)
__global__ void downsample(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i / 2] = in[i];
}
