// The CUDA driver API, loaded at run time with dlopen (libcuda.so.1), so ksynth builds and
// runs where no driver is installed. Only the handful of entry points the runner uses are
// declared here, with the driver's own names and ABI (cuda.h's _v2 variants where it maps
// the plain name to one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ksynth::gpu {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

// Attribute numbers from cuda.h (CUdevice_attribute, CUfunction_attribute).
enum DeviceAttr : int {
  kMaxThreadsPerBlock = 1, kMaxBlockDimX = 2, kMaxBlockDimY = 3, kMaxBlockDimZ = 4,
  kMaxGridDimX = 5, kMaxGridDimY = 6, kMaxGridDimZ = 7, kMaxSharedPerBlock = 8,
  kMaxRegistersPerBlock = 12, kClockRateKHz = 13, kMultiprocessorCount = 16,
  kMemoryClockRateKHz = 36, kGlobalMemoryBusWidth = 37, kL2CacheSize = 38,
  kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76, kMaxSharedPerBlockOptin = 97,
};
enum FuncAttr : int {
  kFuncMaxThreadsPerBlock = 0, kFuncSharedSizeBytes = 1, kFuncLocalSizeBytes = 3, kFuncNumRegs = 4,
  kFuncMaxDynamicSharedSizeBytes = 8,
};

struct Driver {
  void *handle = nullptr;
  std::string error; // why it is not loaded
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int *) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*cuModuleGetFunctionCount)(unsigned *, CUmodule) = nullptr; // CUDA 12.4+
  CUresult (*cuModuleEnumerateFunctions)(CUfunction *, unsigned, CUmodule) = nullptr;
  CUresult (*cuFuncGetName)(const char **, CUfunction) = nullptr;
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemGetInfo)(size_t *, size_t *) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void **, void **) = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;

  bool loaded() const { return handle != nullptr; }
  // "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered" style text.
  std::string errorText(CUresult r) const;
};

// Loads libcuda.so.1 (or $KSYNTH_LIBCUDA) once; Driver::error says why when it fails.
const Driver &driver();

} // namespace ksynth::gpu
