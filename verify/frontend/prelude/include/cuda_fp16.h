// ksynth: __half and __half2 are in the prelude (ksynth_cuda.h).
#pragma once
typedef __half half;
typedef __half2 half2;
struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};
