// expect: unknown
// args: --block 32 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: array fields of struct parameters are not modelled; the host may pass any values,
// so the assert must not be proven (it once was: the field read as 0)
struct S {
  int arr[4];
};

__global__ void k(S s) { __assert(s.arr[2] == 0); }
