// ksynth: the parts of CUB that ksynth declares (see block/block_reduce.cuh).
#pragma once
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>
