// ksynth's CUDA prelude: just enough of the CUDA device API for clang 19 to parse kernels
// with -nocudainc (the system's CUDA 13 headers do not parse with clang 19). ksynth's
// frontend gives these functions their meaning; nothing here has a body.
#pragma once
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#include "__clang_cuda_builtin_vars.h"

// The toolkit version ksynth reads the file as: the CUDA toolkit's own where one is found
// (ksynth passes -DCUDART_VERSION=... from its cuda_runtime_api.h), else 12.4.
#ifndef CUDART_VERSION
#define CUDART_VERSION 12040
#endif
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDART_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#define __CUDA_API_VERSION CUDART_VERSION
// nvcc defines __CUDACC__ in every .cu file it compiles (host and device side alike); programs
// test it to choose between their own host versions of CUDA functions and nvcc's.
#define __CUDACC__ 1

// The toolkit's headers that this prelude stands in for, marked as already included: a host
// library's header read from the toolkit (cublas_api.h, cudnn.h, ...) includes them and must get
// these definitions, not the toolkit's (which clang 19 cannot parse). And the macros of the
// toolkit's host_defines.h that such headers use.
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __DRIVER_TYPES_H__
#define __SURFACE_TYPES_H__
#define __TEXTURE_TYPES_H__
#define __HOST_DEFINES_H__
#define __CUDA_FP16_H__
#define __CUDA_BF16_H__
#define __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_H__
#define __CUDA_DEVICE_RUNTIME_API_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __BUILTIN_TYPES_H__
#define CUDARTAPI
#define CUDARTAPI_CDECL
#define CUDART_CB
#define __dv(v) = v
#define __device_builtin__
#define __cudart_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define CUDART_DEVICE __device__

typedef __SIZE_TYPE__ size_t;
#define KSYNTH_DEV extern "C++" __device__

// Synchronisation.
// __syncthreads and __threadfence* are clang builtins in CUDA mode.
KSYNTH_DEV void __syncwarp(unsigned mask = 0xffffffffu);

// Warp-level primitives (the frontend lowers them to an exchange between the lanes).
#define KSYNTH_SHFL(T)                                                                       \
  KSYNTH_DEV T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32);               \
  KSYNTH_DEV T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32);         \
  KSYNTH_DEV T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32);       \
  KSYNTH_DEV T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32);
KSYNTH_SHFL(int)
KSYNTH_SHFL(unsigned)
KSYNTH_SHFL(long)
KSYNTH_SHFL(unsigned long)
KSYNTH_SHFL(long long)
KSYNTH_SHFL(unsigned long long)
KSYNTH_SHFL(float)
KSYNTH_SHFL(double)
KSYNTH_SHFL(_Float16)
KSYNTH_SHFL(__bf16)
#undef KSYNTH_SHFL
KSYNTH_DEV unsigned __ballot_sync(unsigned mask, int predicate);
KSYNTH_DEV int __any_sync(unsigned mask, int predicate);
KSYNTH_DEV int __all_sync(unsigned mask, int predicate);
KSYNTH_DEV unsigned __activemask(void);
KSYNTH_DEV unsigned __reduce_add_sync(unsigned mask, unsigned value);
KSYNTH_DEV int __reduce_add_sync(unsigned mask, int value);
KSYNTH_DEV unsigned __reduce_min_sync(unsigned mask, unsigned value);
KSYNTH_DEV int __reduce_min_sync(unsigned mask, int value);
KSYNTH_DEV unsigned __reduce_max_sync(unsigned mask, unsigned value);
KSYNTH_DEV int __reduce_max_sync(unsigned mask, int value);
KSYNTH_DEV unsigned __reduce_and_sync(unsigned mask, unsigned value);
KSYNTH_DEV unsigned __reduce_or_sync(unsigned mask, unsigned value);
KSYNTH_DEV unsigned __reduce_xor_sync(unsigned mask, unsigned value);

// Atomics (all overloads CUDA provides for these types).
#define KSYNTH_ATOMIC(name)                                                                  \
  KSYNTH_DEV int name(int *, int);                                                           \
  KSYNTH_DEV unsigned name(unsigned *, unsigned);                                            \
  KSYNTH_DEV unsigned long long name(unsigned long long *, unsigned long long);              \
  KSYNTH_DEV float name(float *, float);                                                     \
  KSYNTH_DEV double name(double *, double);
KSYNTH_ATOMIC(atomicAdd)
KSYNTH_ATOMIC(atomicSub)
KSYNTH_ATOMIC(atomicExch)
KSYNTH_ATOMIC(atomicMin)
KSYNTH_ATOMIC(atomicMax)
KSYNTH_ATOMIC(atomicAnd)
KSYNTH_ATOMIC(atomicOr)
KSYNTH_ATOMIC(atomicXor)
#undef KSYNTH_ATOMIC
KSYNTH_DEV unsigned atomicInc(unsigned *, unsigned);
KSYNTH_DEV unsigned atomicDec(unsigned *, unsigned);
KSYNTH_DEV int atomicCAS(int *, int, int);
KSYNTH_DEV unsigned atomicCAS(unsigned *, unsigned, unsigned);
KSYNTH_DEV unsigned long long atomicCAS(unsigned long long *, unsigned long long,
                                        unsigned long long);

// min and max, host and device, with CUDA's overloads (mixed signedness converts both to
// the unsigned type; a float and a double to double).
#define KSYNTH_MINMAX(R, A, B)                                                               \
  extern "C++" __host__ __device__ R min(A, B);                                              \
  extern "C++" __host__ __device__ R max(A, B);
KSYNTH_MINMAX(int, int, int)
KSYNTH_MINMAX(unsigned, unsigned, unsigned)
KSYNTH_MINMAX(unsigned, int, unsigned)
KSYNTH_MINMAX(unsigned, unsigned, int)
KSYNTH_MINMAX(long, long, long)
KSYNTH_MINMAX(unsigned long, unsigned long, unsigned long)
KSYNTH_MINMAX(unsigned long, long, unsigned long)
KSYNTH_MINMAX(unsigned long, unsigned long, long)
KSYNTH_MINMAX(long long, long long, long long)
KSYNTH_MINMAX(unsigned long long, unsigned long long, unsigned long long)
KSYNTH_MINMAX(unsigned long long, long long, unsigned long long)
KSYNTH_MINMAX(unsigned long long, unsigned long long, long long)
KSYNTH_MINMAX(float, float, float)
KSYNTH_MINMAX(double, double, double)
KSYNTH_MINMAX(double, float, double)
KSYNTH_MINMAX(double, double, float)
#undef KSYNTH_MINMAX

// Integer helpers.
KSYNTH_DEV int abs(int);
KSYNTH_DEV int __mul24(int, int);
KSYNTH_DEV unsigned __umul24(unsigned, unsigned);

// Math (float and double spellings, fast-math intrinsics).
#define KSYNTH_MATH1(n)                                                                      \
  KSYNTH_DEV float n##f(float);                                                              \
  KSYNTH_DEV double n(double);                                                               \
  KSYNTH_DEV float __##n##f(float);
#define KSYNTH_MATH2(n)                                                                      \
  KSYNTH_DEV float n##f(float, float);                                                       \
  KSYNTH_DEV double n(double, double);                                                       \
  KSYNTH_DEV float __##n##f(float, float);
KSYNTH_MATH1(exp) KSYNTH_MATH1(exp2) KSYNTH_MATH1(exp10) KSYNTH_MATH1(expm1)
KSYNTH_MATH1(log) KSYNTH_MATH1(log2) KSYNTH_MATH1(log10) KSYNTH_MATH1(log1p)
KSYNTH_MATH1(sqrt) KSYNTH_MATH1(rsqrt) KSYNTH_MATH1(cbrt)
KSYNTH_MATH1(sin) KSYNTH_MATH1(cos) KSYNTH_MATH1(tan) KSYNTH_MATH1(tanh)
KSYNTH_MATH1(sinh) KSYNTH_MATH1(cosh) KSYNTH_MATH1(asin) KSYNTH_MATH1(acos)
KSYNTH_MATH1(atan) KSYNTH_MATH1(erf) KSYNTH_MATH1(erfc) KSYNTH_MATH1(fabs)
KSYNTH_MATH1(floor) KSYNTH_MATH1(ceil) KSYNTH_MATH1(round) KSYNTH_MATH1(trunc)
KSYNTH_MATH2(pow) KSYNTH_MATH2(fmin) KSYNTH_MATH2(fmax) KSYNTH_MATH2(fmod) KSYNTH_MATH2(atan2)
KSYNTH_MATH2(fdivide)
#undef KSYNTH_MATH1
#undef KSYNTH_MATH2
// CUDA's math library has host versions of the functions C's lacks (a CPU reference uses them).
extern "C++" __host__ float rsqrtf(float);
extern "C++" __host__ double rsqrt(double);
KSYNTH_DEV float fmaf(float, float, float);
KSYNTH_DEV double fma(double, double, double);
KSYNTH_DEV float __fmaf_rn(float, float, float);
KSYNTH_DEV float __fdividef(float, float);
KSYNTH_DEV float __fdiv_rn(float, float);
KSYNTH_DEV float __fadd_rn(float, float);
KSYNTH_DEV float __fsub_rn(float, float);
KSYNTH_DEV float __fmul_rn(float, float);
KSYNTH_DEV float __frcp_rn(float);
KSYNTH_DEV float __fsqrt_rn(float);
KSYNTH_DEV float __frsqrt_rn(float);
KSYNTH_DEV float __saturatef(float);
KSYNTH_DEV double __fma_rn(double, double, double);

// GPUVerify's annotation language (meaning given by ksynth's frontend).
KSYNTH_DEV void __requires(bool);
KSYNTH_DEV void __ensures(bool);
KSYNTH_DEV void __assume(bool);
extern "C++" __host__ __device__ void __assert(bool); // also behind assert() in host code
KSYNTH_DEV void __trap(void);  // aborts the launch: checked as an assertion that fails
KSYNTH_DEV void __brkpt(void);
KSYNTH_DEV bool __invariant(bool);
KSYNTH_DEV bool __global_invariant(bool);
KSYNTH_DEV bool __implies(bool, bool);
KSYNTH_DEV bool __enabled(void);
KSYNTH_DEV bool __uniform_int(int);
KSYNTH_DEV bool __uniform_bool(bool);
KSYNTH_DEV bool __distinct_int(int);
KSYNTH_DEV bool __all(bool);
KSYNTH_DEV int __other_int(int);

// A device assert that fails traps: ksynth checks it as an assertion (the <assert.h> that
// ksynth provides adds nothing to this).
#ifndef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) __assert(e)
#endif
#endif
KSYNTH_DEV bool __other_bool(bool);
KSYNTH_DEV int __mod_pow2(int, int);
KSYNTH_DEV bool __write_implies(const volatile void *, bool);
KSYNTH_DEV bool __read_implies(const volatile void *, bool);
KSYNTH_DEV bool __write(const volatile void *);
KSYNTH_DEV bool __read(const volatile void *);
KSYNTH_DEV bool __no_read(const volatile void *);
KSYNTH_DEV bool __no_write(const volatile void *);
KSYNTH_DEV unsigned __write_offset_bytes(const volatile void *);
KSYNTH_DEV unsigned __read_offset_bytes(const volatile void *);
KSYNTH_DEV unsigned __ptr_offset_bytes(const volatile void *);
KSYNTH_DEV void __requires_fresh_array(const volatile void *);
KSYNTH_DEV int __return_val_int(void);
KSYNTH_DEV bool __return_val_bool(void);
KSYNTH_DEV void *__return_val_ptr(void);

// ksynth's own: the number of elements accessible through a pointer parameter, for
// declaring global array sizes: `__requires(__len(a) >= n)`.
KSYNTH_DEV unsigned long long __len(const volatile void *);

// GPUVerify's file-scope axioms: `__axiom(e);` becomes a function the frontend finds by
// name and assumes in every kernel.
#define KSYNTH_CAT2(a, b) a##b
#define KSYNTH_CAT(a, b) KSYNTH_CAT2(a, b)
KSYNTH_DEV void __ksynth_axiom(bool);
#define __axiom(e)                                                                           \
  static __device__ void KSYNTH_CAT(__ksynth_axiom_fn_, __COUNTER__)(void) { __ksynth_axiom(e); }

#ifndef NULL
#define NULL 0
#endif

// Fences order memory; they do not synchronise threads.
KSYNTH_DEV void __threadfence(void);
KSYNTH_DEV void __threadfence_block(void);
KSYNTH_DEV void __threadfence_system(void);

// Vector types (uint3 and dim3 come with clang's builtin variables), aligned as CUDA's are:
// to their size, at most 16 bytes.
#define KSYNTH_VEC(T, N2, N4)                                                                \
  struct __align__(2 * sizeof(T)) N2 { T x, y; };                                            \
  struct __align__(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) N4 { T x, y, z, w; };
KSYNTH_VEC(int, int2, int4)
KSYNTH_VEC(unsigned, uint2, uint4)
KSYNTH_VEC(float, float2, float4)
KSYNTH_VEC(double, double2, double4)
KSYNTH_VEC(char, char2, char4)
KSYNTH_VEC(unsigned char, uchar2, uchar4)
KSYNTH_VEC(short, short2, short4)
KSYNTH_VEC(unsigned short, ushort2, ushort4)
KSYNTH_VEC(long long, longlong2, longlong4)
#undef KSYNTH_VEC
struct int3 { int x, y, z; };
struct float3 { float x, y, z; };

// Textures: read-only memory whose contents ksynth does not model (a fetch is some value).
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {};
template <class T, enum cudaTextureReadMode mode>
__device__ T tex1Dfetch(texture<T, 1, mode>, int);

// Cooperative groups: block-wide and grid-wide barriers.
namespace cooperative_groups {
// A group whose kind (a block, a tile of some size) is known only at run time: declared so that
// code passing groups around parses; a call on one is unknown, naming it (not modelled).
struct thread_group {
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
};
__device__ thread_group tiled_partition(const thread_group &parent, unsigned tileSize);
__device__ void sync(const thread_group &);
struct thread_block : thread_group {
  __device__ void sync() const;
  __device__ unsigned thread_rank() const; // threadIdx linearised, x fastest
  __device__ unsigned size() const;        // blockDim.x * blockDim.y * blockDim.z
  __device__ unsigned num_threads() const;
};
// The grid: its rank and size are modelled (from the builtin variables, x fastest), as
// thread_block's; is_valid, num_blocks and block_rank are calls without a body.
struct grid_group {
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long block_rank() const;
  __device__ bool is_valid() const;
};
// The threads of a warp that are active together, and partitions of a tile by a label: their
// membership is known only at run time, so calls on them are unknown, naming the call.
struct coalesced_group : thread_group {
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  __device__ unsigned ballot(int pred) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
};
__device__ coalesced_group coalesced_threads();
template <class Parent> __device__ coalesced_group labeled_partition(const Parent &, int label);
template <class Parent> __device__ coalesced_group binary_partition(const Parent &, bool label);
template <unsigned Size> struct block_tile_memory {
  unsigned char __ksynth_bytes[Size];
};
template <unsigned Size> __device__ thread_block this_thread_block(block_tile_memory<Size> &);
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ void synchronize(const thread_block &);
__device__ void synchronize(const grid_group &);
__device__ void sync(const thread_block &);
__device__ void sync(const grid_group &);
// A tile of Size threads (a power of two up to 32): a segment of a warp.
template <unsigned Size> struct thread_block_tile : thread_group {
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned laneMask) const;
  __device__ unsigned ballot(int pred) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
};
template <unsigned Size, class Parent> __device__ thread_block_tile<Size> tiled_partition(const Parent &);
template <class T> struct plus {};
template <class T> struct less {};
template <class T> struct greater {};
template <unsigned Size, class T, class Op> __device__ T reduce(const thread_block_tile<Size> &, T, Op);
} // namespace cooperative_groups

// cuRAND's per-thread generators: drawing a number reads and updates the whole state (the
// frontend models curand_init/curand*(state) as reads and writes of every field of *state).
struct curandStateXORWOW {
  unsigned d, v0, v1, v2, v3, v4;
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandState;
typedef struct curandStateXORWOW curandState_t;
KSYNTH_DEV void curand_init(unsigned long long seed, unsigned long long subsequence,
                            unsigned long long offset, curandState *state);
KSYNTH_DEV unsigned curand(curandState *state);
KSYNTH_DEV float curand_uniform(curandState *state);
KSYNTH_DEV float curand_normal(curandState *state);
// MTGP32 states are shared by a block in a way ksynth does not model: its calls are refused.
struct curandStateMtgp32 {
  unsigned s[1024];
  int offset, pIdx;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;
KSYNTH_DEV unsigned curand(curandStateMtgp32 *state);
KSYNTH_DEV float curand_uniform(curandStateMtgp32 *state);
KSYNTH_DEV float curand_normal(curandStateMtgp32 *state);
// GPUVerify: the return value inside __ensures (ksynth ignores __ensures; it inlines calls).
#define __return_val_funptr(T) ((T)0)
// Short unsigned type names that glibc's <sys/types.h> provides to most CUDA programs.
typedef unsigned int uint;
typedef unsigned short ushort;
// Device-side memcpy/memset (the frontend maps their bytes onto the fields they touch).
extern "C" __device__ void *memcpy(void *, const void *, size_t);
extern "C" __device__ void *memset(void *, int, size_t);

// Vector constructors (CUDA's vector_functions.h).
#define KSYNTH_INL static __device__ __forceinline__
#define KSYNTH_MAKE(T, N)                                                                    \
  KSYNTH_INL N##2 make_##N##2(T x, T y) { return {x, y}; }                                  \
  KSYNTH_INL N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }
KSYNTH_MAKE(int, int)
KSYNTH_MAKE(unsigned, uint)
KSYNTH_MAKE(float, float)
KSYNTH_MAKE(double, double)
KSYNTH_MAKE(char, char)
KSYNTH_MAKE(unsigned char, uchar)
KSYNTH_MAKE(short, short)
KSYNTH_MAKE(unsigned short, ushort)
KSYNTH_MAKE(long long, longlong)
#undef KSYNTH_MAKE
KSYNTH_INL int3 make_int3(int x, int y, int z) { return {x, y, z}; }
KSYNTH_INL float3 make_float3(float x, float y, float z) { return {x, y, z}; }

// Cached and streaming loads and stores (__ldg, __ldcs, __stcs, ...): the plain access; the
// cache hint changes where the bytes are kept, not what is read or written.
#define KSYNTH_LD(n)                                                                         \
  template <class T> KSYNTH_INL T n(const T *p) { return *p; }
#define KSYNTH_ST(n)                                                                         \
  template <class T> KSYNTH_INL void n(T *p, T v) { *p = v; }
KSYNTH_LD(__ldg) KSYNTH_LD(__ldca) KSYNTH_LD(__ldcg) KSYNTH_LD(__ldcs) KSYNTH_LD(__ldlu) KSYNTH_LD(__ldcv)
KSYNTH_ST(__stwb) KSYNTH_ST(__stcg) KSYNTH_ST(__stcs) KSYNTH_ST(__stwt)
#undef KSYNTH_LD
#undef KSYNTH_ST

// Half precision (cuda_fp16.h) and bfloat16 (cuda_bf16.h). __half is IEEE binary16 and
// __nv_bfloat16 is bfloat16 (clang's _Float16 and __bf16): their arithmetic is done in the
// type and rounded to it, as the GPU's half instructions do, and a mixed expression with a
// float converts to float. Over the reals (the symbolic semantics) rounding is not modelled,
// as for float; narrowing to a half type is listed as an abstraction (it overflows to
// infinity past 65504). The intrinsics are defined by what they compute.
typedef _Float16 __half;
typedef __bf16 __nv_bfloat16;
struct __align__(4) __half2 { __half x, y; };
struct __align__(4) __nv_bfloat162 { __nv_bfloat16 x, y; };
// (`half`, `half2`, `nv_bfloat16`: from cuda_fp16.h and cuda_bf16.h, where included.)
// Atomics on half types (the pair forms are refused by the frontend, naming them) and the
// bit reinterpretations (unmodelled: their result is some value).
KSYNTH_DEV __half atomicAdd(__half *, __half);
KSYNTH_DEV __nv_bfloat16 atomicAdd(__nv_bfloat16 *, __nv_bfloat16);
KSYNTH_DEV __half2 atomicAdd(__half2 *, __half2);
KSYNTH_DEV __nv_bfloat162 atomicAdd(__nv_bfloat162 *, __nv_bfloat162);
KSYNTH_DEV __half __ushort_as_half(unsigned short);
KSYNTH_DEV unsigned short __half_as_ushort(__half);
KSYNTH_DEV __nv_bfloat16 __ushort_as_bfloat16(unsigned short);
KSYNTH_DEV unsigned short __bfloat16_as_ushort(__nv_bfloat16);

KSYNTH_INL __half __float2half(float f) { return (__half)f; }
KSYNTH_INL __half __float2half_rn(float f) { return (__half)f; }
KSYNTH_INL __half __double2half(double f) { return (__half)f; }
KSYNTH_INL __half __int2half_rn(int i) { return (__half)i; }
KSYNTH_INL float __half2float(__half h) { return (float)h; }
KSYNTH_INL __nv_bfloat16 __float2bfloat16(float f) { return (__nv_bfloat16)f; }
KSYNTH_INL __nv_bfloat16 __float2bfloat16_rn(float f) { return (__nv_bfloat16)f; }
KSYNTH_INL __nv_bfloat16 __double2bfloat16(double f) { return (__nv_bfloat16)f; }
KSYNTH_INL __nv_bfloat16 __int2bfloat16_rn(int i) { return (__nv_bfloat16)i; }
KSYNTH_INL float __bfloat162float(__nv_bfloat16 h) { return (float)h; }

KSYNTH_INL __half2 __floats2half2_rn(float a, float b) { return {(__half)a, (__half)b}; }
KSYNTH_INL __half2 __float2half2_rn(float a) { return {(__half)a, (__half)a}; }
KSYNTH_INL __half2 __float22half2_rn(float2 f) { return {(__half)f.x, (__half)f.y}; }
KSYNTH_INL float2 __half22float2(__half2 h) { return {(float)h.x, (float)h.y}; }
KSYNTH_INL __half2 __halves2half2(__half a, __half b) { return {a, b}; }
KSYNTH_INL __half2 __half2half2(__half a) { return {a, a}; }
KSYNTH_INL __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return {(__nv_bfloat16)a, (__nv_bfloat16)b};
}
KSYNTH_INL __nv_bfloat162 __float2bfloat162_rn(float a) { return {(__nv_bfloat16)a, (__nv_bfloat16)a}; }
KSYNTH_INL __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return {(__nv_bfloat16)f.x, (__nv_bfloat16)f.y};
}
KSYNTH_INL float2 __bfloat1622float2(__nv_bfloat162 h) { return {(float)h.x, (float)h.y}; }
KSYNTH_INL __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return {a, b}; }
KSYNTH_INL __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return {a, a}; }

// One set of names for both types (CUDA overloads them), scalar and pair.
#define KSYNTH_HALF_OPS(H, H2)                                                               \
  KSYNTH_INL float __low2float(H2 h) { return (float)h.x; }                                 \
  KSYNTH_INL float __high2float(H2 h) { return (float)h.y; }                                \
  KSYNTH_INL H __low2half(H2 h) { return h.x; }                                             \
  KSYNTH_INL H __high2half(H2 h) { return h.y; }                                            \
  KSYNTH_INL H2 __lowhigh2highlow(H2 h) { return {h.y, h.x}; }                              \
  KSYNTH_INL H __hadd(H a, H b) { return a + b; }                                           \
  KSYNTH_INL H __hsub(H a, H b) { return a - b; }                                           \
  KSYNTH_INL H __hmul(H a, H b) { return a * b; }                                           \
  KSYNTH_INL H __hdiv(H a, H b) { return a / b; }                                           \
  KSYNTH_INL H __hneg(H a) { return -a; }                                                   \
  KSYNTH_INL H __habs(H a) { return a < (H)0 ? -a : a; }                                    \
  KSYNTH_INL H __hfma(H a, H b, H c) { return (H)((float)a * (float)b + (float)c); }        \
  KSYNTH_INL H __hmax(H a, H b) { return a > b ? a : b; }                                   \
  KSYNTH_INL H __hmin(H a, H b) { return a < b ? a : b; }                                   \
  KSYNTH_INL bool __heq(H a, H b) { return a == b; }                                        \
  KSYNTH_INL bool __hne(H a, H b) { return a != b; }                                        \
  KSYNTH_INL bool __hlt(H a, H b) { return a < b; }                                         \
  KSYNTH_INL bool __hle(H a, H b) { return a <= b; }                                        \
  KSYNTH_INL bool __hgt(H a, H b) { return a > b; }                                         \
  KSYNTH_INL bool __hge(H a, H b) { return a >= b; }                                        \
  KSYNTH_INL H2 __hadd2(H2 a, H2 b) { return {a.x + b.x, a.y + b.y}; }                      \
  KSYNTH_INL H2 __hsub2(H2 a, H2 b) { return {a.x - b.x, a.y - b.y}; }                      \
  KSYNTH_INL H2 __hmul2(H2 a, H2 b) { return {a.x * b.x, a.y * b.y}; }                      \
  KSYNTH_INL H2 __h2div(H2 a, H2 b) { return {a.x / b.x, a.y / b.y}; }                      \
  KSYNTH_INL H2 __hneg2(H2 a) { return {-a.x, -a.y}; }                                      \
  KSYNTH_INL H2 __habs2(H2 a) { return {__habs(a.x), __habs(a.y)}; }                        \
  KSYNTH_INL H2 __hfma2(H2 a, H2 b, H2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; } \
  KSYNTH_INL H2 __hmax2(H2 a, H2 b) { return {__hmax(a.x, b.x), __hmax(a.y, b.y)}; }        \
  KSYNTH_INL H2 __hmin2(H2 a, H2 b) { return {__hmin(a.x, b.x), __hmin(a.y, b.y)}; }        \
  KSYNTH_INL H2 operator+(H2 a, H2 b) { return __hadd2(a, b); }                             \
  KSYNTH_INL H2 operator-(H2 a, H2 b) { return __hsub2(a, b); }                             \
  KSYNTH_INL H2 operator*(H2 a, H2 b) { return __hmul2(a, b); }                             \
  KSYNTH_INL H2 operator/(H2 a, H2 b) { return __h2div(a, b); }
KSYNTH_HALF_OPS(__half, __half2)
KSYNTH_HALF_OPS(__nv_bfloat16, __nv_bfloat162)
#undef KSYNTH_HALF_OPS
// Math on halves: the float function of the value, rounded back (hexp, hsqrt, ...).
#define KSYNTH_HALF_MATH(n, f)                                                               \
  KSYNTH_INL __half n(__half a) { return (__half)f((float)a); }                              \
  KSYNTH_INL __nv_bfloat16 n(__nv_bfloat16 a) { return (__nv_bfloat16)f((float)a); }
KSYNTH_HALF_MATH(hexp, expf)
KSYNTH_HALF_MATH(hlog, logf)
KSYNTH_HALF_MATH(hsqrt, sqrtf)
KSYNTH_HALF_MATH(hrsqrt, rsqrtf)
KSYNTH_HALF_MATH(htanh, tanhf)
#undef KSYNTH_HALF_MATH

// Tensor cores (mma.h): nvcuda::wmma fragments of the 16 x 16 x 16 shape. CUDA does not say
// which lane holds which element of a fragment, so ksynth's fragment is its own model (see
// verify/frontend/lower_wmma.cpp), kept in a member user code cannot name: element access
// (`frag.x[i]`, `num_elements`) is not modelled. The functions get their meaning in the
// frontend.
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
template <class Use> struct __ksynth_frag_elems { static constexpr int value = 1; };
template <> struct __ksynth_frag_elems<matrix_a> { static constexpr int value = 128; };
template <> struct __ksynth_frag_elems<matrix_b> { static constexpr int value = 16; };
template <> struct __ksynth_frag_elems<accumulator> { static constexpr int value = 8; };
template <class Use, int m, int n, int k, class T, class Layout = void> struct fragment {
  T __ksynth_elems[__ksynth_frag_elems<Use>::value];
};
template <class Use, int m, int n, int k, class T, class L, class V>
__device__ void fill_fragment(fragment<Use, m, n, k, T, L> &a, const V &v);
template <class Use, int m, int n, int k, class T, class L, class P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, L> &a, const P *p, unsigned ldm);
template <class Use, int m, int n, int k, class T, class L, class P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, L> &a, const P *p, unsigned ldm, layout_t layout);
template <int m, int n, int k, class T, class P>
__device__ void store_matrix_sync(P *p, const fragment<accumulator, m, n, k, T, void> &a, unsigned ldm,
                                  layout_t layout);
template <int m, int n, int k, class TA, class LA, class TB, class LB, class TC, class TD>
__device__ void mma_sync(fragment<accumulator, m, n, k, TD, void> &d, const fragment<matrix_a, m, n, k, TA, LA> &a,
                         const fragment<matrix_b, m, n, k, TB, LB> &b,
                         const fragment<accumulator, m, n, k, TC, void> &c, bool satf = false);
} // namespace wmma
} // namespace nvcuda

// uint3 and dim3, which clang's builtin variables only declare. A dim3 in a kernel is a struct
// of three unsigned fields (its constructor is inlined like any other).
struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
KSYNTH_INL uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }

// ---- The CUDA runtime's host API, as declarations ----------------------------------------
// nvcc makes these visible in every .cu file. Host code is parsed, never verified: only the
// names and types are needed, so that whole programs (allocation, copies, launches, timing,
// error checks) parse unchanged. Written for ksynth from the runtime's documented interface.
enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 4, cudaErrorLaunchTimeout = 6, cudaErrorLaunchOutOfResources = 7,
  cudaErrorInvalidDeviceFunction = 8, cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevice = 10,
  cudaErrorInvalidMemcpyDirection = 21, cudaErrorNoDevice = 100, cudaErrorNotReady = 600, cudaErrorAssert = 710,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1, cudaFuncCachePreferEqual };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte };
enum cudaLimit { cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize };
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
  cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
enum cudaResourceType {
  cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPos {
  size_t x, y, z;
};
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, asyncEngineCount, unifiedAddressing;
  int memoryClockRate, memoryBusWidth, l2CacheSize, maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor, sharedMemPerBlockOptin;
  int regsPerMultiprocessor, managedMemory, cooperativeLaunch;
};
#define cudaHostAllocDefault 0
#define cudaHostAllocPortable 1
#define cudaHostAllocMapped 2
#define cudaEventDefault 0
#define cudaEventBlockingSync 1
#define cudaEventDisableTiming 2
#define cudaStreamDefault 0
#define cudaStreamNonBlocking 1
#define cudaMemAttachGlobal 1
#define cudaDeviceScheduleAuto 0
#define cudaDeviceMapHost 8
#define KSYNTH_HOST extern "C" __host__
KSYNTH_HOST cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
KSYNTH_HOST cudaError_t cudaMalloc(void **p, size_t bytes);
KSYNTH_HOST cudaError_t cudaMallocHost(void **p, size_t bytes);
KSYNTH_HOST cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags = cudaMemAttachGlobal);
KSYNTH_HOST cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height);
KSYNTH_HOST cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags);
KSYNTH_HOST cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags);
KSYNTH_HOST cudaError_t cudaFree(void *p);
KSYNTH_HOST cudaError_t cudaFreeHost(void *p);
KSYNTH_HOST cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
KSYNTH_HOST cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                        cudaStream_t stream = 0);
KSYNTH_HOST cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind);
KSYNTH_HOST cudaError_t cudaMemset(void *p, int value, size_t bytes);
KSYNTH_HOST cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream = 0);
KSYNTH_HOST cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
KSYNTH_HOST cudaError_t cudaMemPrefetchAsync(const void *p, size_t bytes, int device, cudaStream_t stream = 0);
KSYNTH_HOST cudaError_t cudaDeviceSynchronize(void);
KSYNTH_HOST cudaError_t cudaThreadSynchronize(void);
KSYNTH_HOST cudaError_t cudaDeviceReset(void);
KSYNTH_HOST cudaError_t cudaThreadExit(void);
KSYNTH_HOST cudaError_t cudaSetDevice(int device);
KSYNTH_HOST cudaError_t cudaGetDevice(int *device);
KSYNTH_HOST cudaError_t cudaGetDeviceCount(int *count);
KSYNTH_HOST cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
KSYNTH_HOST cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
KSYNTH_HOST cudaError_t cudaSetDeviceFlags(unsigned flags);
KSYNTH_HOST cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
KSYNTH_HOST cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
KSYNTH_HOST cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
KSYNTH_HOST cudaError_t cudaGetLastError(void);
KSYNTH_HOST cudaError_t cudaPeekAtLastError(void);
KSYNTH_HOST const char *cudaGetErrorString(cudaError_t error);
KSYNTH_HOST const char *cudaGetErrorName(cudaError_t error);
KSYNTH_HOST cudaError_t cudaEventCreate(cudaEvent_t *event);
KSYNTH_HOST cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
KSYNTH_HOST cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
KSYNTH_HOST cudaError_t cudaEventSynchronize(cudaEvent_t event);
KSYNTH_HOST cudaError_t cudaEventQuery(cudaEvent_t event);
KSYNTH_HOST cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
KSYNTH_HOST cudaError_t cudaEventDestroy(cudaEvent_t event);
KSYNTH_HOST cudaError_t cudaStreamCreate(cudaStream_t *stream);
KSYNTH_HOST cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
KSYNTH_HOST cudaError_t cudaStreamDestroy(cudaStream_t stream);
KSYNTH_HOST cudaError_t cudaStreamSynchronize(cudaStream_t stream);
KSYNTH_HOST cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
KSYNTH_HOST cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config);
KSYNTH_HOST cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
KSYNTH_HOST cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                         cudaStream_t stream);
KSYNTH_HOST cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                                    size_t shared, cudaStream_t stream);
KSYNTH_HOST cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int block,
                                                                      size_t shared);
KSYNTH_HOST cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t bytes, size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice);
KSYNTH_HOST cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t bytes, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
KSYNTH_HOST cudaError_t cudaGetSymbolAddress(void **p, const void *symbol);
KSYNTH_HOST cudaError_t cudaDriverGetVersion(int *version);
KSYNTH_HOST cudaError_t cudaRuntimeGetVersion(int *version);
KSYNTH_HOST struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
KSYNTH_HOST cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                        size_t height = 0, unsigned flags = 0);
KSYNTH_HOST cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                          struct cudaExtent extent, unsigned flags = 0);
KSYNTH_HOST cudaError_t cudaFreeArray(cudaArray_t array);
KSYNTH_HOST cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t bytes, enum cudaMemcpyKind kind);
KSYNTH_HOST cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                            size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
KSYNTH_HOST cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
KSYNTH_HOST cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex, const struct cudaResourceDesc *res,
                                                const struct cudaTextureDesc *desc, const void *view);
KSYNTH_HOST cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex);
KSYNTH_HOST cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *surf, const struct cudaResourceDesc *res);
KSYNTH_HOST cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf);
KSYNTH_HOST cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned *flags,
                                         cudaArray_t array);
KSYNTH_HOST cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *array, const struct cudaChannelFormatDesc *desc,
                                                 struct cudaExtent extent, unsigned levels, unsigned flags = 0);
KSYNTH_HOST cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t array);
KSYNTH_HOST cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *level, cudaMipmappedArray_t array, unsigned index);
#undef KSYNTH_HOST
// The C++ API's typed overloads (a T** for a void**, a symbol by reference).
template <class T> __host__ cudaError_t cudaMalloc(T **p, size_t bytes) { return cudaMalloc((void **)p, bytes); }
template <class T> __host__ cudaError_t cudaMallocHost(T **p, size_t bytes) {
  return cudaMallocHost((void **)p, bytes);
}
template <class T> __host__ cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)p, bytes, flags);
}
template <class T> __host__ cudaError_t cudaHostAlloc(T **p, size_t bytes, unsigned flags) {
  return cudaHostAlloc((void **)p, bytes, flags);
}
template <class T> __host__ cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)p, pitch, width, height);
}
template <class T>
__host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t bytes, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, bytes, offset, kind);
}
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes, size_t offset = 0,
                                          cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, bytes, offset, kind);
}
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGrid, int *block, T func, size_t shared = 0,
                                                        int blockLimit = 0);
static inline __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return {w, h, d}; }
static inline __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return {x, y, z}; }
static inline __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void *p, size_t pitch, size_t xs, size_t ys) {
  return {p, pitch, xs, ys};
}
// Fetches through a texture object. They read memory ksynth does not see (the texture's
// array): a call without a body, so what depends on one is unknown, naming it.
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t tex, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t tex, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t tex, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t tex, float x, float y, float z);
template <class T> __device__ T tex2DLod(cudaTextureObject_t tex, float x, float y, float level);
template <class T> __device__ void surf2Dwrite(T v, cudaSurfaceObject_t surf, int x, int y);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t surf, int x, int y);
template <class T> __host__ cudaError_t cudaFuncSetCacheConfig(T *func, cudaFuncCache config) {
  return cudaFuncSetCacheConfig((const void *)func, config);
}
template <class T> __host__ cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}

// ---- What nvcc's implicit cuda_runtime.h brings into every .cu file ---------------------
// The C library's <stdio.h>, <stdlib.h>, <string.h>, <time.h> and <math.h> (host code uses
// exit, rand, malloc, EXIT_FAILURE, powf ... without including them), and the device-side printf, malloc, free
// and clock beside the host ones.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>    // the host's math functions (powf, fabs, isfinite ...), as nvcc's math headers
#include <cmath>
#include <utility> // the runtime's C++ launch helpers bring in std::forward, std::move
extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
extern "C" __device__ clock_t clock(void);
// Bit and timer intrinsics, declared so that kernels using them parse; the verifier knows
// nothing of their results (a call without a body: the obligations that depend on one are
// unknown, naming it).
KSYNTH_DEV long long clock64(void);
KSYNTH_DEV int __popc(unsigned);
KSYNTH_DEV int __popcll(unsigned long long);
KSYNTH_DEV int __clz(int);
KSYNTH_DEV int __clzll(long long);
KSYNTH_DEV int __ffs(int);
KSYNTH_DEV int __ffsll(long long);
KSYNTH_DEV unsigned __brev(unsigned);
KSYNTH_DEV unsigned long long __brevll(unsigned long long);
KSYNTH_DEV unsigned __byte_perm(unsigned, unsigned, unsigned);
KSYNTH_DEV int __mulhi(int, int);
KSYNTH_DEV unsigned __umulhi(unsigned, unsigned);
KSYNTH_DEV unsigned __sad(int, int, unsigned);
KSYNTH_DEV unsigned __usad(unsigned, unsigned, unsigned);
KSYNTH_DEV unsigned __float_as_uint(float);
KSYNTH_DEV int __float_as_int(float);
KSYNTH_DEV float __uint_as_float(unsigned);
KSYNTH_DEV float __int_as_float(int);
KSYNTH_DEV long long __double_as_longlong(double);
KSYNTH_DEV double __longlong_as_double(long long);
KSYNTH_DEV void __nanosleep(unsigned); // no effect on memory
