// expect: proven
// args: --block 256
// note: __syncwarp with the caller's mask (a parameter) in the lanes it names: each lane reads its right
// note: neighbour's value through shared memory, where the mask names the neighbour too
__global__ void right_neighbour(const int *x, int *out, int n, unsigned mask) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && blockDim.x <= 256);
  __requires(__len(x) >= n && __len(out) >= n);
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if ((mask >> lane) & 1u) {
    int v = i < n ? x[i] : 0;
    s[threadIdx.x] = v;
    __syncwarp(mask);
    int p = lane < 31 ? lane + 1 : lane;
    int w = (mask >> p) & 1u ? s[threadIdx.x - lane + p] : v;
    if (i < n)
      out[i] = w;
  }
}
