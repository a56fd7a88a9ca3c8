// expect: refuted bounds
// args: --block 2048 --grid 1 --checks bounds
// note: regression (review): a block beyond CUDA limits given as constants is checked as given: thread 1024 writes a[1024] (thread indices were capped at 1023 and it was proven)
__global__ void k(int *a) {
  __requires(__len(a) >= 1024);
  a[threadIdx.x] = 1;
}
