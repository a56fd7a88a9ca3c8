// ksynth:spec mse_loss expect=equivalence
// ksynth:launch grid=(1) block=(1024)
// Bug: the float4 loop strides by 512, half the block: the float4s from 512 on are added
// twice (by thread t and by thread t - 512).
__global__ void mse_loss_block(const float *__restrict__ P, const float *__restrict__ T, float *__restrict__ L,
                               int N) {
  __shared__ float part[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc = 0.0f;
  if (N % 4 == 0) {
    const float4 *p4 = reinterpret_cast<const float4 *>(P);
    const float4 *t4 = reinterpret_cast<const float4 *>(T);
#pragma unroll 4
    for (int i = threadIdx.x; i < N / 4; i += 512) {
      float4 p = p4[i], t = t4[i];
      float dx = p.x - t.x, dy = p.y - t.y, dz = p.z - t.z, dw = p.w - t.w;
      acc += dx * dx + dy * dy + dz * dz + dw * dw;
    }
  } else {
    for (int i = threadIdx.x; i < N; i += 1024) {
      float d = P[i] - T[i];
      acc += d * d;
    }
  }
  for (int off = 16; off > 0; off >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0)
    part[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    float v = part[lane];
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
      L[0] = v / N;
  }
}
