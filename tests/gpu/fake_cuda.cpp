// A stand-in for libcuda.so.1 for testing the GPU runner's plumbing where there is no GPU
// (KSYNTH_LIBCUDA=path/to/libksynth_fake_cuda.so). Memory is host memory; a launch runs
// nothing, so a kernel's outputs stay as the runner left them (poisoned). What a launch does
// is chosen by KSYNTH_FAKE_LAUNCH: "nothing" (default), "hang" (never returns), "fault" (the
// launch's synchronisation reports an illegal address), "refuse" (the launch is refused).
// The one function in a module is named by KSYNTH_FAKE_KERNEL (a mangled or plain name).
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

extern "C" {

using CUresult = int;
static bool faulted = false;

CUresult cuInit(unsigned) { return 0; }
CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return 0;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  *s = r == 700 ? "an illegal memory access was encountered" : r == 1 ? "invalid argument" : "fake error";
  return 0;
}
CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return 0;
}
CUresult cuDeviceGet(int *d, int) {
  *d = 0;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, int) {
  std::strncpy(name, "ksynth fake CUDA device", static_cast<size_t>(len));
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int) {
  switch (attr) {
  case 1: *v = 1024; break;
  case 2: case 3: *v = 1024; break;
  case 4: *v = 64; break;
  case 5: *v = 2147483647; break;
  case 6: case 7: *v = 65535; break;
  case 8: *v = 49152; break;
  case 12: *v = 65536; break;
  case 13: *v = 1000000; break; // 1 GHz
  case 16: *v = 2; break;
  case 36: *v = 1000000; break;
  case 37: *v = 64; break;
  case 38: *v = 1 << 20; break;
  case 75: *v = 8; break;
  case 76: *v = 0; break;
  case 97: *v = 101376; break;
  default: *v = 0;
  }
  return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int) {
  *b = size_t{1} << 30;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  static int c;
  *ctx = &c;
  return 0;
}
CUresult cuCtxSetCurrent(void *) { return 0; }
CUresult cuCtxSynchronize() { return faulted ? 700 : 0; }
CUresult cuModuleLoadData(void **m, const void *) {
  static int mod;
  *m = &mod;
  return 0;
}
// Only the mangled name finds the function (an extern "C" lookup by the plain name fails);
// handles from enumeration are not loaded, as under lazy loading: some attributes fail.
static int loadedFunction;
CUresult cuModuleGetFunction(void **f, void *, const char *name) {
  const char *k = std::getenv("KSYNTH_FAKE_KERNEL");
  if (!k || std::strcmp(name, k) != 0)
    return 500; // CUDA_ERROR_NOT_FOUND
  *f = &loadedFunction;
  return 0;
}
CUresult cuModuleGetFunctionCount(unsigned *n, void *) {
  *n = 1;
  return 0;
}
static int theFunction;
CUresult cuModuleEnumerateFunctions(void **fs, unsigned n, void *) {
  if (n >= 1)
    fs[0] = &theFunction;
  return 0;
}
CUresult cuFuncGetName(const char **name, void *) {
  const char *k = std::getenv("KSYNTH_FAKE_KERNEL");
  *name = k ? k : "kernel";
  return 0;
}
CUresult cuFuncGetAttribute(int *v, int attr, void *f) {
  if (attr == 0 && f != &loadedFunction)
    return 1;
  *v = attr == 0 ? 1024 : attr == 4 ? 16 : 0;
  return 0;
}
CUresult cuFuncSetAttribute(void *, int, int) { return 0; }
CUresult cuMemAlloc_v2(unsigned long long *p, size_t n) {
  void *m = std::malloc(n ? n : 1);
  if (!m)
    return 2;
  *p = reinterpret_cast<unsigned long long>(m);
  return 0;
}
CUresult cuMemFree_v2(unsigned long long p) {
  std::free(reinterpret_cast<void *>(p));
  return 0;
}
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) {
  *f = *t = size_t{1} << 30;
  return 0;
}
CUresult cuMemcpyHtoD_v2(unsigned long long d, const void *s, size_t n) {
  std::memcpy(reinterpret_cast<void *>(d), s, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *d, unsigned long long s, size_t n) {
  std::memcpy(d, reinterpret_cast<const void *>(s), n);
  return 0;
}
CUresult cuMemsetD8_v2(unsigned long long d, unsigned char v, size_t n) {
  std::memset(reinterpret_cast<void *>(d), v, n);
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                        void **) {
  if (f != &loadedFunction)
    return 400; // CUDA_ERROR_INVALID_HANDLE
  const char *m = std::getenv("KSYNTH_FAKE_LAUNCH");
  std::string mode = m ? m : "nothing";
  if (mode == "hang")
    for (;;)
      ::pause();
  if (mode == "refuse")
    return 1;
  if (mode == "fault")
    faulted = true;
  return 0;
}
CUresult cuEventCreate(void **e, unsigned) {
  static int ev[2], n;
  *e = &ev[n++ % 2];
  return 0;
}
CUresult cuEventRecord(void *, void *) { return 0; }
CUresult cuEventSynchronize(void *) { return faulted ? 700 : 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *, void *) {
  *ms = 1.0f;
  return 0;
}
}
