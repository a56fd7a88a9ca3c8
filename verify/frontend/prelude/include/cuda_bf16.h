// ksynth: __nv_bfloat16 and __nv_bfloat162 are in the prelude (ksynth_cuda.h).
#pragma once
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};
