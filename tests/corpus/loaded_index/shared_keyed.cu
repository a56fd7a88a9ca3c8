// expect: unknown
// args: --block 256 --checks race
// note: shared cell chosen by a loaded key: a race only if two keys collide
__global__ void bucket(const int *key, int *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __shared__ int owner[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  owner[t] = -1;
  __syncthreads();
  if (i < n)
    owner[key[i] & 255] = t;
  __syncthreads();
  if (i < n)
    out[i] = owner[t];
}
