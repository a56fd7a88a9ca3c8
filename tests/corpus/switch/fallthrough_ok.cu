// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: case 1 falls through into case 2: slot is 0, 2 (1 + 1), 2 or 3; Y holds 4 slots of 64
__global__ void bySlot(float *Y, const float *X, int mode) {
  __requires(__len(Y) >= 256 && __len(X) >= 64);
  int slot = 0;
  switch (mode) {
  case 0:
    slot = 0;
    break;
  case 1:
    slot = 1;
  case 2:
    slot += 1;
    break;
  default:
    slot = 3;
  }
  Y[slot * 64 + threadIdx.x] = X[threadIdx.x];
}
