// ksynth: the 8-bit float types, declared so that files using them parse. Their conversions
// have no bodies here: a kernel that converts to or from fp8 is unknown, naming the call
// (ksynth does not model fp8 rounding).
#pragma once
#include <cuda_fp16.h>
#include <cuda_bf16.h>
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };
#define KSYNTH_FP8(N)                                                                               \
  struct __align__(1) N {                                                                         \
    __nv_fp8_storage_t __x;                                                                       \
    N() = default;                                                                                \
    __host__ __device__ explicit N(float f);                                                      \
    __host__ __device__ explicit N(double f);                                                     \
    __host__ __device__ explicit N(__half f);                                                     \
    __host__ __device__ explicit N(__nv_bfloat16 f);                                              \
    __host__ __device__ explicit operator float() const;                                          \
    __host__ __device__ explicit operator __half() const;                                         \
    __host__ __device__ explicit operator __nv_bfloat16() const;                                  \
  };
KSYNTH_FP8(__nv_fp8_e4m3)
KSYNTH_FP8(__nv_fp8_e5m2)
#undef KSYNTH_FP8
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t saturate,
                                                             __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x,
                                                      __nv_fp8_interpretation_t fp8_interpretation);
