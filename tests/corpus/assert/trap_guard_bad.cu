// expect: refuted assert
// args: --block 64 --grid 4 --checks assert,bounds,race
// note: the twin of trap_guard_ok: n = 0 is allowed, so a thread reaches __trap()
__global__ void scaleRows(float *A, int n) {
  __requires(n >= 0 && __len(A) >= 256);
  if (n < 1)
    __trap();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = A[i] / n;
}
