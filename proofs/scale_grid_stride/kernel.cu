// ksynth:launch grid=(64) block=(256)
// A fixed grid covers any N with a grid-stride loop.
__global__ void scale_grid_stride(const float *X, float *Y, float alpha, int N) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    Y[i] = alpha * X[i];
}
