// expect: proven
// args: --block 1 --grid 1 --checks assert
// note: unsigned 64-bit literals past INT64_MAX keep their value (they once crashed the frontend, then read as -1)
__global__ void u64lit(unsigned long long x) {
  __assert(0xFFFFFFFFFFFFFFFFull > 5);
  __assert((1ull << 63) > 5);
  if (x > 0xFFFFFFFFFFFFFFF0ull)
    __assert(x != 0);
}
