// ksynth: CUB's reduction operators, with their meaning.
#pragma once
namespace cub {
struct Sum {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
struct Max {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
} // namespace cub
