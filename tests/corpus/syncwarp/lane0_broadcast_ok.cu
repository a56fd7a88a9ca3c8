// expect: proven
// args: --block 128 --checks race,barrier,bounds,overflow,assert
__global__ void warp_broadcast(const float *in, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(in) >= n);
  __requires(__len(out) >= n);
  __shared__ float first[4];
  int t = threadIdx.x;
  int lane = t % 32;
  int w = t / 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane == 0)
    first[w] = i < n ? in[i] : 0.0f;
  __syncwarp();
  if (i < n)
    out[i] = first[w];
}
