// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: references to two memory locations: each thread swaps its own pair
__device__ void swapf(float &a, float &b) {
  float t = a;
  a = b;
  b = t;
}
__global__ void swapArrays(float *A, float *B, int n) {
  __requires(__len(A) >= n && __len(B) >= n && gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    swapf(A[i], B[i]);
}
