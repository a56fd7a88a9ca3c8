// ksynth: declarations for parsing (used where the CUDA toolkit's own header is not found;
// see DESIGN.md, "Headers"). The arithmetic has bodies, so kernels that use it are verified
// through it.
#pragma once
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
__host__ __device__ inline float cuCrealf(cuFloatComplex x) { return x.x; }
__host__ __device__ inline float cuCimagf(cuFloatComplex x) { return x.y; }
__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) { return make_float2(r, i); }
__host__ __device__ inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_float2(x.x, -x.y); }
__host__ __device__ inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) {
  return make_float2(a.x + b.x, a.y + b.y);
}
__host__ __device__ inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) {
  return make_float2(a.x - b.x, a.y - b.y);
}
__host__ __device__ inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__host__ __device__ inline double cuCreal(cuDoubleComplex x) { return x.x; }
__host__ __device__ inline double cuCimag(cuDoubleComplex x) { return x.y; }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { return make_double2(r, i); }
__host__ __device__ inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_double2(x.x, -x.y); }
__host__ __device__ inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) {
  return make_double2(a.x + b.x, a.y + b.y);
}
__host__ __device__ inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) {
  return make_double2(a.x - b.x, a.y - b.y);
}
__host__ __device__ inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) {
  return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
