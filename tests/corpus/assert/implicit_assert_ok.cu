// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: assert without an #include, as nvcc allows (its cuda_runtime.h includes <assert.h>)
__global__ void scaleRows(float *Y, const float *X, int cols) {
  __requires(__len(Y) >= 64 * 16 && __len(X) >= 64 * 16 && cols >= 1 && cols <= 16);
  assert(cols <= 16);
  for (int c = 0; c < cols; ++c)
    Y[threadIdx.x * 16 + c] = 2.0f * X[threadIdx.x * 16 + c];
}
