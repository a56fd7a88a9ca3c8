// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the barrier sits before the store instead of between store and load:
// note: thread 0 reads s[255] while thread 255 writes it
__global__ void reverse_block(const int *in, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  s[t] = i < n ? in[i] : 0;
  if (i < n)
    out[i] = s[255 - t];
}
