// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: `continue` in a switch continues the loop; `break` leaves only the switch
__global__ void skipTwo(float *Y, const float *X) {
  __requires(__len(Y) >= 256 && __len(X) >= 64);
  int slot = 0;
  for (int i = 0; i < 4; ++i) {
    switch (i) {
    case 2:
      continue;
    default:
      break;
    }
    if (i == 2)
      slot = 100; // never reached
  }
  Y[slot * 64 + threadIdx.x] = X[threadIdx.x];
}
