// ksynth: the CUDA profiler control API, as declarations for parsing host code (used where the
// CUDA toolkit's own header is not found; see DESIGN.md, "Headers").
#pragma once
extern "C" cudaError_t cudaProfilerStart(void);
extern "C" cudaError_t cudaProfilerStop(void);
