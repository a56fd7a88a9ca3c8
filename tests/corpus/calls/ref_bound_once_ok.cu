// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: a reference names the element it was bound to: changing j afterwards does not move it
__global__ void setOnce(float *A, int n) {
  __requires(__len(A) >= n && n < 1000000 && gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = i;
    float &r = A[j];
    j += 1000000;
    r = 1.0f;
  }
}
