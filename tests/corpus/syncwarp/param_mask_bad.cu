// expect: refuted warp
// args: --block 256
// note: twin of param_mask_ok: the lanes sync with only the even lanes of the caller's mask, a
// note: mask that does not name the odd lanes that call it
__global__ void right_neighbour(const int *x, int *out, int n, unsigned mask) {
  __requires(gridDim.y == 1 && gridDim.z == 1 && blockDim.x <= 256);
  __requires(__len(x) >= n && __len(out) >= n);
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if ((mask >> lane) & 1u) {
    int v = i < n ? x[i] : 0;
    s[threadIdx.x] = v;
    __syncwarp(mask & 0x55555555u);
    int p = lane < 31 ? lane + 1 : lane;
    int w = (mask >> p) & 1u ? s[threadIdx.x - lane + p] : v;
    if (i < n)
      out[i] = w;
  }
}
