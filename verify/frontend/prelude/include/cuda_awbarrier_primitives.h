// ksynth: see cuda_pipeline_primitives.h.
#pragma once
#include <cuda_pipeline_primitives.h>
