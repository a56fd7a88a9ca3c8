// expect: proven
// args: --block 256 --checks race,barrier,bounds,overflow,assert
// note: a cursor advanced through a reference: thread i writes B[2i] then B[2i + 1]
__device__ void emit(int &cursor, float *out, float v) {
  out[cursor] = v;
  cursor++;
}
__global__ void pairs(const float *A, float *B, int n) {
  __requires(__len(A) >= n && __len(B) >= 2 * n && n < 100000000 && gridDim.y == 1 && gridDim.z == 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int c = 2 * i;
    emit(c, B, A[i]);
    emit(c, B, -A[i]);
  }
}
