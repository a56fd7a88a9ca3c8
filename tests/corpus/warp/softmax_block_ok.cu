// expect: proven
// args: --block 256 --timeout 30
// note: softmax with two block reductions (fmaxf, then a sum of expf) made of shuffle butterflies, each result handed to every thread through shared memory; part is reused (the barrier before mx = rowmax also orders warp 0's reads of part before the second round of stores). With --spec specs/softmax.smt its equivalence is proven too, in about 95 s on the 2-core machine (1091 solver queries; too slow for the bundled library yet)
__global__ void softmax_block(const float *__restrict__ X, float *__restrict__ Y, int R, int C) {
  __requires(gridDim.x <= R && gridDim.y == 1 && gridDim.z == 1);
  __requires(R >= 0 && C >= 0 && R <= 65535 && C <= 16384);
  __requires(__len(X) >= R * C && __len(Y) >= R * C);
  __shared__ float part[8];
  __shared__ float rowmax, denom;
  int r = blockIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float m = -3.402823466e+38f; // -FLT_MAX
  for (int c = threadIdx.x; c < C; c += 256)
    m = fmaxf(m, X[r * C + c]);
  for (int off = 16; off > 0; off >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (lane == 0)
    part[warp] = m;
  __syncthreads();
  if (warp == 0) {
    float v = lane < 8 ? part[lane] : -3.402823466e+38f;
    for (int off = 16; off > 0; off >>= 1)
      v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    if (lane == 0)
      rowmax = v;
  }
  __syncthreads();
  float mx = rowmax;
  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += 256)
    s += expf(X[r * C + c] - mx);
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, off);
  if (lane == 0)
    part[warp] = s;
  __syncthreads();
  if (warp == 0) {
    float v = lane < 8 ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_xor_sync(0xffffffffu, v, off);
    if (lane == 0)
      denom = v;
  }
  __syncthreads();
  float d = denom;
  for (int c = threadIdx.x; c < C; c += 256)
    Y[r * C + c] = expf(X[r * C + c] - mx) / d;
}
