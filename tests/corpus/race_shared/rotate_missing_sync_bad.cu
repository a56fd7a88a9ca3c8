// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: thread t reads s[t+1], written by thread t+1 with no barrier in between
// note: witness: block 0, threads 0 and 1, n >= 1
__global__ void rotate_left(const int *in, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0;
  if (i < n)
    out[i] = s[(t + 1) % 256];
}
