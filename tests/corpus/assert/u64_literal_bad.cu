// expect: refuted assert
// args: --block 1 --grid 1 --checks assert
// note: the twin of u64_literal_ok: 2^64 - 1 is not below 5
__global__ void u64lit(unsigned long long x) {
  __assert(0xFFFFFFFFFFFFFFFFull < 5);
}
