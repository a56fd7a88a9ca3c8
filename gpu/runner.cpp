// The GPU runner: the child process of runOnGpu (run.h). It loads the CUDA driver, the cubin
// and the kernel, checks the launch against the function's and the device's limits, and
// runs warm-up + timed repeats: fresh inputs (values.h), outputs poisoned, L2 flushed, the
// launch between two events on the default stream, then the compared elements written to
// DIR/r<repeat>_t<tensor>.bin (doubles). DIR/result.json says how far it got.
#include "gpu/cuda.h"
#include "gpu/device.h"
#include "gpu/plan.h"
#include "gpu/run.h"
#include "gpu/values.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

namespace ksynth::gpu {

namespace fs = std::filesystem;

namespace {

struct Result {
  fs::path dir;
  nlohmann::json j = {{"ok", false}, {"repeats_done", 0}, {"times_ms", nlohmann::json::array()}};
  void save() {
    std::ofstream out(dir / "result.json.tmp");
    out << j.dump() << "\n";
    out.close();
    fs::rename(dir / "result.json.tmp", dir / "result.json");
  }
  int fail(const std::string &kind, const std::string &error) {
    j["ok"] = false;
    j["failure"] = kind;
    j["error"] = error;
    save();
    return 1;
  }
};

// One run in the child process. Each phase returns the exit status to stop with (the failure
// recorded in result.json), or nothing to go on.
class GpuRun {
public:
  explicit GpuRun(const std::string &dirName) { res.dir = dirName; }

  int run() {
    for (auto phase : {&GpuRun::load, &GpuRun::checkLimits, &GpuRun::allocate})
      if (std::optional<int> code = (this->*phase)())
        return *code;
    for (int r = 0; r < plan->warmup + plan->repeats; ++r)
      if (std::optional<int> code = repeat(r))
        return *code;
    res.j["ok"] = true;
    res.save();
    for (CUdeviceptr b : buf)
      cuPtr->cuMemFree(b);
    cuPtr->cuMemFree(flush);
    return 0;
  }

private:
  Result res;
  std::string err;
  std::optional<Plan> plan;
  const Driver *cuPtr = nullptr;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  std::vector<CUdeviceptr> buf;            // every tensor
  std::vector<size_t> bytes;
  std::vector<std::vector<unsigned char>> host;
  size_t flushBytes = 0;
  CUdeviceptr flush = 0;                   // written between repeats to flush L2
  CUevent start = nullptr, stop = nullptr;
  std::vector<std::array<unsigned char, 8>> argBytes;
  std::vector<void *> argPtrs;

  bool check(CUresult r, const char *what) {
    if (r != 0)
      err = std::string(what) + ": " + cuPtr->errorText(r);
    return r == 0;
  }
  int fattr(int a) { // -1: the driver does not say
    int v = 0;
    return cuPtr->cuFuncGetAttribute(&v, a, fn) == 0 ? v : -1;
  }
  int64_t dattr(int a) { // 2^31 - 1 when the driver does not say (no limit checked)
    int v = 0;
    return cuPtr->cuDeviceGetAttribute(&v, a, dev) == 0 && v > 0 ? static_cast<int64_t>(v) : int64_t{2147483647};
  }
  std::optional<int> load();
  std::optional<int> checkLimits();
  std::optional<int> allocate();
  void marshal(int repeat);
  std::optional<int> repeat(int r);
};

// The plan, the driver, a context, the cubin and the kernel in it.
std::optional<int> GpuRun::load() {
  {
    std::ifstream in(res.dir / "plan.json");
    try {
      plan = Plan::fromJson(nlohmann::json::parse(in), err);
    } catch (const std::exception &e) {
      err = e.what();
    }
  }
  if (!plan)
    return res.fail("setup", "cannot read the run plan: " + err);
  const Plan &p = *plan;
  cuPtr = &driver();
  const Driver &cu = *cuPtr;
  if (!cu.loaded())
    return res.fail("setup", cu.error);
  if (!check(cu.cuInit(0), "cuInit"))
    return res.fail("setup", err);
  if (!check(cu.cuDeviceGet(&dev, 0), "cuDeviceGet") || !check(cu.cuDevicePrimaryCtxRetain(&ctx, dev), "context") ||
      !check(cu.cuCtxSetCurrent(ctx), "context"))
    return res.fail("setup", err);
  std::string image;
  {
    std::ifstream in(res.dir / "kernel.cubin", std::ios::binary);
    image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (image.empty() || !check(cu.cuModuleLoadData(&mod, image.data()), "loading the cubin"))
    return res.fail("setup", image.empty() ? "no kernel.cubin" : err);
  // The kernel: by its plain name (extern "C"), else the one mangled name whose base it is.
  // The symbol ptxas named, else the plain name (extern "C"), else the one enumerated
  // function whose (demangled) base name it is (CUDA 12.4+ drivers).
  if ((p.symbol.empty() || cu.cuModuleGetFunction(&fn, mod, p.symbol.c_str()) != 0) &&
      cu.cuModuleGetFunction(&fn, mod, p.kernel.c_str()) != 0) {
    fn = nullptr;
    unsigned n = 0;
    std::vector<std::string> names;
    if (cu.cuModuleGetFunctionCount && cu.cuModuleGetFunctionCount(&n, mod) == 0 && n > 0) {
      std::vector<CUfunction> fs(n);
      cu.cuModuleEnumerateFunctions(fs.data(), n, mod);
      for (CUfunction f : fs) {
        const char *name = nullptr;
        if (cu.cuFuncGetName(&name, f) == 0 && name && baseName(name) == p.kernel)
          names.push_back(name);
      }
    }
    if (names.size() != 1)
      return res.fail("setup", names.empty() ? "no kernel '" + p.kernel + "' in the cubin" +
                                                   (cu.cuModuleGetFunctionCount ? "" : " (by that name; this driver cannot list a cubin's functions)")
                                             : "'" + p.kernel + "' is overloaded in the cubin");
    // By name, so the function is loaded (enumerated handles may not be, under lazy loading).
    if (!check(cu.cuModuleGetFunction(&fn, mod, names[0].c_str()), "getting the kernel"))
      return res.fail("setup", err);
    res.j["symbol"] = names[0];
  }
  return std::nullopt;
}

// The launch against the function's and the device's limits, before launching.
std::optional<int> GpuRun::checkLimits() {
  const Plan &p = *plan;
  const Driver &cu = *cuPtr;
  int maxThreads = fattr(kFuncMaxThreadsPerBlock), staticShared = fattr(kFuncSharedSizeBytes);
  res.j["function"] = {{"registers", fattr(kFuncNumRegs)},
                       {"static_shared_bytes", staticShared},
                       {"local_bytes", fattr(kFuncLocalSizeBytes)},
                       {"max_threads_per_block", maxThreads}};
  int64_t threads = p.block[0] * p.block[1] * p.block[2];
  const int blockAttr[3] = {kMaxBlockDimX, kMaxBlockDimY, kMaxBlockDimZ};
  const int gridAttr[3] = {kMaxGridDimX, kMaxGridDimY, kMaxGridDimZ};
  for (int d = 0; d < 3; ++d) {
    if (p.block[d] > dattr(blockAttr[d]))
      return res.fail("resources", "block dimension " + std::to_string(d) + " is " + std::to_string(p.block[d]) +
                                       "; the device allows " + std::to_string(dattr(blockAttr[d])));
    if (p.grid[d] > dattr(gridAttr[d]))
      return res.fail("resources", "grid dimension " + std::to_string(d) + " is " + std::to_string(p.grid[d]) +
                                       "; the device allows " + std::to_string(dattr(gridAttr[d])));
  }
  if (maxThreads > 0 && threads > maxThreads)
    return res.fail("resources", std::to_string(threads) + " threads per block; this kernel can have at most " +
                                     std::to_string(maxThreads) + " (registers: " +
                                     std::to_string(fattr(kFuncNumRegs)) + " per thread)");
  int64_t optin = dattr(kMaxSharedPerBlockOptin);
  int64_t sharedLimit = std::max<int64_t>(optin, dattr(kMaxSharedPerBlock));
  if (std::max(staticShared, 0) + p.sharedBytes > sharedLimit)
    return res.fail("resources", std::to_string(std::max(staticShared, 0) + p.sharedBytes) +
                                     " bytes of shared memory per block; the device allows " + std::to_string(sharedLimit));
  // Beyond 48 KiB in all, the dynamic part needs the function's opt-in.
  if (p.sharedBytes > 0 && std::max(staticShared, 0) + p.sharedBytes > 48 * 1024 &&
      !check(cu.cuFuncSetAttribute(fn, kFuncMaxDynamicSharedSizeBytes, static_cast<int>(p.sharedBytes)),
             "raising the dynamic shared memory limit"))
    return res.fail("resources", err);
  return std::nullopt;
}

// Buffers: every tensor, and one to flush L2 between repeats; the timing events.
std::optional<int> GpuRun::allocate() {
  const Plan &p = *plan;
  const Driver &cu = *cuPtr;
  buf.assign(p.tensors.size(), 0);
  bytes.assign(p.tensors.size(), 0);
  host.assign(p.tensors.size(), {});
  for (size_t t = 0; t < p.tensors.size(); ++t) {
    bytes[t] = static_cast<size_t>(p.tensors[t].elements) * elemBytes(p.tensors[t].type);
    if (!check(cu.cuMemAlloc(&buf[t], std::max<size_t>(bytes[t], 1)), "allocating tensors"))
      return res.fail("resources", err + " (" + p.tensors[t].name + ": " + std::to_string(bytes[t]) + " bytes)");
    host[t].resize(bytes[t]);
  }
  flushBytes = static_cast<size_t>(std::clamp<int64_t>(2 * dattr(kL2CacheSize), 64 << 20, 512 << 20));
  if (!check(cu.cuMemAlloc(&flush, flushBytes), "allocating the L2 flush buffer"))
    return res.fail("resources", err);
  res.j["l2_flush_bytes"] = flushBytes;
  if (!check(cu.cuEventCreate(&start, 0), "cuEventCreate") || !check(cu.cuEventCreate(&stop, 0), "cuEventCreate"))
    return res.fail("setup", err);
  return std::nullopt;
}

// Arguments, in parameter order (scalars change per repeat).
void GpuRun::marshal(int repeat) {
  const Plan &p = *plan;
argBytes.resize(p.args.size());
argPtrs.resize(p.args.size());
  for (size_t i = 0; i < p.args.size(); ++i) {
    const ArgPlan &a = p.args[i];
    unsigned char *dst = argBytes[i].data();
    if (a.kind == ArgPlan::Kind::Tensor) {
      std::memcpy(dst, &buf[static_cast<size_t>(a.tensor)], sizeof(CUdeviceptr));
    } else if (a.kind == ArgPlan::Kind::Float) {
      using spec::ElemType;
      ElemType t = a.bits == 64   ? ElemType::F64
                   : a.bits == 16 ? (a.bfloat ? ElemType::BF16 : ElemType::F16)
                                  : ElemType::F32;
      storeElem(t, p.argValue(a, repeat), dst);
    } else {
      using spec::ElemType;
      ElemType t = a.bits == 8    ? (a.isSigned ? ElemType::I8 : ElemType::U8)
                   : a.bits == 16 ? (a.isSigned ? ElemType::I16 : ElemType::U16)
                   : a.bits == 32 ? (a.isSigned ? ElemType::I32 : ElemType::U32)
                                  : (a.isSigned ? ElemType::I64 : ElemType::U64);
      storeElem(t, p.argValue(a, repeat), dst);
    }
    argPtrs[i] = dst;
  }
}

// One repeat: fresh inputs, outputs poisoned, L2 flushed, the timed launch, the compared
// elements written out.
std::optional<int> GpuRun::repeat(int r) {
  const Plan &p = *plan;
  const Driver &cu = *cuPtr;
  marshal(r);
  for (size_t t = 0; t < p.tensors.size(); ++t) {
    const TensorPlan &tp = p.tensors[t];
    if (tp.mode == spec::Mode::Out) {
      if (!check(cu.cuMemsetD8(buf[t], poisonByte(tp.type, r), bytes[t]), "poisoning outputs"))
        return res.fail("setup", err);
      continue;
    }
    unsigned w = elemBytes(tp.type);
    for (int64_t i = 0; i < tp.elements; ++i)
      storeElem(tp.type, inputValue(p.seed, r, static_cast<int>(t), i, tp.type), &host[t][static_cast<size_t>(i) * w]);
    if (bytes[t] && !check(cu.cuMemcpyHtoD(buf[t], host[t].data(), bytes[t]), "copying inputs"))
      return res.fail("setup", err);
  }
  if (!check(cu.cuMemsetD8(flush, static_cast<unsigned char>(r), flushBytes), "flushing L2") ||
      !check(cu.cuCtxSynchronize(), "before the launch"))
    return res.fail("setup", err);
  if (!check(cu.cuEventRecord(start, nullptr), "cuEventRecord"))
    return res.fail("setup", err);
  CUresult lr = cu.cuLaunchKernel(fn, static_cast<unsigned>(p.grid[0]), static_cast<unsigned>(p.grid[1]),
                                  static_cast<unsigned>(p.grid[2]), static_cast<unsigned>(p.block[0]),
                                  static_cast<unsigned>(p.block[1]), static_cast<unsigned>(p.block[2]),
                                  static_cast<unsigned>(p.sharedBytes), nullptr, argPtrs.data(), nullptr);
  if (lr != 0)
    return res.fail("launch", "repeat " + std::to_string(r) + ": the launch was refused: " + cu.errorText(lr));
  if (!check(cu.cuEventRecord(stop, nullptr), "cuEventRecord"))
    return res.fail("setup", err);
  if (!check(cu.cuEventSynchronize(stop), "the kernel") || !check(cu.cuCtxSynchronize(), "the kernel"))
    return res.fail("fault", "repeat " + std::to_string(r) + ": " + err);
  float ms = 0;
  if (!check(cu.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime"))
    return res.fail("setup", err);
  // The compared elements, as doubles.
  for (size_t t = 0; t < p.tensors.size(); ++t) {
    const TensorPlan &tp = p.tensors[t];
    if (tp.mode == spec::Mode::In)
      continue;
    if (bytes[t] && !check(cu.cuMemcpyDtoH(host[t].data(), buf[t], bytes[t]), "copying outputs"))
      return res.fail("fault", "repeat " + std::to_string(r) + ": " + err);
    unsigned w = elemBytes(tp.type);
    std::vector<double> vals;
    for (int64_t i : comparedElements(p, t, r))
      vals.push_back(loadElem(tp.type, &host[t][static_cast<size_t>(i) * w]));
    fs::path file = res.dir / ("r" + std::to_string(r) + "_t" + std::to_string(t) + ".bin");
    std::ofstream out(file, std::ios::binary);
    out.write(reinterpret_cast<const char *>(vals.data()), static_cast<std::streamsize>(vals.size() * sizeof(double)));
    out.close();
    if (!out)
      return res.fail("setup", "cannot write " + file.string());
  }
  res.j["times_ms"].push_back(ms);
  res.j["repeats_done"] = r + 1;
  res.save();
  return std::nullopt;
}

} // namespace

int gpuRunMain(const std::string &dirName) { return GpuRun(dirName).run(); }

} // namespace ksynth::gpu
