// ksynth: CUB's WarpReduce, declared. Its members have no bodies here, so a kernel that calls
// one is unknown, naming the call (ksynth does not model CUB's algorithms yet).
#pragma once
#include <cub/util_type.cuh>
namespace cub {
template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
public:
  struct TempStorage {
    T opaque; // CUB's layout is not modelled
  };
  __device__ WarpReduce(TempStorage &temp_storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int valid_items);
  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op);
  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op, int valid_items);
};
} // namespace cub
