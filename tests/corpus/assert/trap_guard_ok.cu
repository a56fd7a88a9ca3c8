// expect: proven
// args: --block 64 --grid 4 --checks assert,bounds,race
// note: __trap() is an assertion that fails where it is reached; here n >= 1 keeps it unreachable
__global__ void scaleRows(float *A, int n) {
  __requires(n >= 1 && __len(A) >= 256);
  if (n < 1)
    __trap();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = A[i] / n;
}
