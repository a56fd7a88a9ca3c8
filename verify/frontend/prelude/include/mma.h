// ksynth: nvcuda::wmma is in the prelude (ksynth_cuda.h).
#pragma once
#include <cuda_fp16.h>
