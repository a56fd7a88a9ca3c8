// expect: refuted race
// args: --block 64 --grid 1 --checks race
// note: regression (review): a bool subscript crashed the checker; threads 0 and 1 both write a[c == 5]
__global__ void k(int *a, int c) {
  __requires(__len(a) >= 64);
  a[c == 5] = 1;
}
