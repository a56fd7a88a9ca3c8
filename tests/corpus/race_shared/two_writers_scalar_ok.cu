// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
__global__ void broadcast_first(const int *in, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ int first;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    first = i < n ? in[i] : -1;
  __syncthreads();
  if (i < n)
    out[i] = first;
}
