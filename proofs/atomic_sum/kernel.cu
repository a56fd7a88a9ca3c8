// ksynth:launch grid=(128) block=(256)
// Each thread sums a grid-strided slice, then adds it to S with one atomicAdd
// (order-independent over the reals).
__global__ void atomic_sum(const float *X, float *S, int N) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    acc += X[i];
  atomicAdd(S, acc);
}
