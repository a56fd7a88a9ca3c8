// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: every thread writes the same value 1 to the shared flag: still a write-write race
__global__ void gated_copy(const int *in, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ int ready;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ready = 1;
  __syncthreads();
  if (i < n && ready == 1)
    out[i] = in[i];
}
