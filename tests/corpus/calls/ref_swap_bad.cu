// expect: refuted race
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: swapping neighbours: thread 0 writes A[1] through b while thread 1 reads it through a
__device__ void swapf(float &a, float &b) {
  float t = a;
  a = b;
  b = t;
}
__global__ void swapArrays(float *A, float *B, int n) {
  __requires(__len(A) >= n && __len(B) >= n && gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    swapf(A[i], A[i + 1]);
}
