// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: threads 0 and 1 both write the shared scalar (write-write race)
__global__ void broadcast_first(const int *in, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ int first;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 2)
    first = i < n ? in[i] : -1;
  __syncthreads();
  if (i < n)
    out[i] = first;
}
