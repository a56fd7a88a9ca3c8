// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: default written first still matches only values no case names; a GNU case range
__global__ void pick(float *Y, const float *X, int k) {
  __requires(__len(Y) >= 64 * 8 && __len(X) >= 64);
  int row;
  switch (k) {
  default:
    row = 7;
    break;
  case 0 ... 3:
    row = k;
    break;
  case 4:
    row = 6;
    break;
  }
  Y[row * 64 + threadIdx.x] = X[threadIdx.x];
}
