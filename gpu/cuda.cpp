#include "gpu/cuda.h"

#include <cstdlib>
#include <dlfcn.h>

namespace ksynth::gpu {

std::string Driver::errorText(CUresult r) const {
  const char *s = nullptr;
  if (cuGetErrorString && cuGetErrorString(r, &s) == 0 && s)
    return std::string(s) + " (CUDA error " + std::to_string(r) + ")";
  return "CUDA error " + std::to_string(r);
}

namespace {

Driver load() {
  Driver d;
  const char *env = std::getenv("KSYNTH_LIBCUDA");
  std::string lib = env && *env ? env : "libcuda.so.1";
  void *h = ::dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = ::dlerror();
    d.error = "no CUDA driver (" + lib + ": " + (e ? e : "not found") + ")";
    return d;
  }
  bool missing = false;
  std::string which;
  auto sym = [&](auto &fn, const char *name, bool required = true) {
    void *p = ::dlsym(h, name);
    if (!p && required && !missing) {
      missing = true;
      which = name;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
  sym(d.cuInit, "cuInit");
  sym(d.cuDriverGetVersion, "cuDriverGetVersion");
  sym(d.cuGetErrorString, "cuGetErrorString");
  sym(d.cuDeviceGetCount, "cuDeviceGetCount");
  sym(d.cuDeviceGet, "cuDeviceGet");
  sym(d.cuDeviceGetName, "cuDeviceGetName");
  sym(d.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  sym(d.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  sym(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  sym(d.cuCtxSetCurrent, "cuCtxSetCurrent");
  sym(d.cuCtxSynchronize, "cuCtxSynchronize");
  sym(d.cuModuleLoadData, "cuModuleLoadData");
  sym(d.cuModuleGetFunction, "cuModuleGetFunction");
  sym(d.cuModuleGetFunctionCount, "cuModuleGetFunctionCount", false);
  sym(d.cuModuleEnumerateFunctions, "cuModuleEnumerateFunctions", false);
  sym(d.cuFuncGetName, "cuFuncGetName", false);
  sym(d.cuFuncGetAttribute, "cuFuncGetAttribute");
  sym(d.cuFuncSetAttribute, "cuFuncSetAttribute");
  sym(d.cuMemAlloc, "cuMemAlloc_v2");
  sym(d.cuMemFree, "cuMemFree_v2");
  sym(d.cuMemGetInfo, "cuMemGetInfo_v2");
  sym(d.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  sym(d.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  sym(d.cuMemsetD8, "cuMemsetD8_v2");
  sym(d.cuLaunchKernel, "cuLaunchKernel");
  sym(d.cuEventCreate, "cuEventCreate");
  sym(d.cuEventRecord, "cuEventRecord");
  sym(d.cuEventSynchronize, "cuEventSynchronize");
  // cuda.h maps cuEventElapsedTime to _v2 from CUDA 12.8; older drivers have only the first.
  sym(d.cuEventElapsedTime, "cuEventElapsedTime_v2", false);
  if (!d.cuEventElapsedTime)
    sym(d.cuEventElapsedTime, "cuEventElapsedTime");
  if (missing) {
    d.error = lib + " lacks " + which + " (driver too old)";
    ::dlclose(h);
    return d;
  }
  d.handle = h;
  return d;
}

} // namespace

const Driver &driver() {
  static const Driver d = load();
  return d;
}

} // namespace ksynth::gpu
