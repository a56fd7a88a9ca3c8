// expect: refuted bounds
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: the element is named after j moved: A[i + 1000000] is past the end for every admitted n
__global__ void setOnce(float *A, int n) {
  __requires(__len(A) >= n && n < 1000000 && gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = i;
    j += 1000000;
    float &r = A[j];
    r = 1.0f;
  }
}
