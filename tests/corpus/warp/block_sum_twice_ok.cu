// expect: proven
// args: --block 256
// note: a block sum (xor butterflies in every warp, the 8 warp sums through one shared array read by every warp) used twice, for the mean and then the variance; the __syncthreads() before each reuse of part orders the second call's stores after every warp's reads of the first
__device__ float blockSum(float v, float *part) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  __syncthreads();
  if (lane == 0)
    part[warp] = v;
  __syncthreads();
  v = lane < 8 ? part[lane] : 0.0f;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}
__global__ void row_var(const float *X, float *V, int R, int C) {
  __requires(gridDim.x <= R && gridDim.y == 1 && gridDim.z == 1);
  __requires(R >= 0 && C > 0 && R <= 65535 && C <= 16384);
  __requires(__len(X) >= R * C && __len(V) >= R);
  __shared__ float part[8];
  int r = blockIdx.x;
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    s += X[r * C + c];
  float mean = blockSum(s, part) / C;
  float q = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    q += (X[r * C + c] - mean) * (X[r * C + c] - mean);
  q = blockSum(q, part);
  if (threadIdx.x == 0)
    V[r] = q / C;
}
