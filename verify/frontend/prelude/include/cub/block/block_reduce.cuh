// ksynth: CUB's BlockReduce, declared. Its members have no bodies here, so a kernel that calls
// one is unknown, naming the call (ksynth does not model CUB's algorithms yet).
#pragma once
#include <cub/util_type.cuh>
namespace cub {
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
public:
  struct TempStorage {
    T opaque; // CUB's layout is not modelled
  };
  __device__ BlockReduce(TempStorage &temp_storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op);
  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op, int num_valid);
};
} // namespace cub
