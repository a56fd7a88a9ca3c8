// expect: refuted bounds
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: without the break after case 2, mode 1 and 2 fall into default too: slot 1 + 1 + 3 = 5
// note: for mode 1, past Y's 4 slots
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
  default:
    slot += 3;
  }
  Y[slot * 64 + threadIdx.x] = X[threadIdx.x];
}
