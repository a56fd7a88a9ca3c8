// expect: refuted bounds
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the range reaches 8: k = 8 stores to row 8 of a 8-row Y
__global__ void pick(float *Y, const float *X, int k) {
  __requires(__len(Y) >= 64 * 8 && __len(X) >= 64);
  int row;
  switch (k) {
  default:
    row = 7;
    break;
  case 0 ... 8:
    row = k;
    break;
  case 9:
    row = 6;
    break;
  }
  Y[row * 64 + threadIdx.x] = X[threadIdx.x];
}
