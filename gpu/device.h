// gpu/ device facts and compilation: what the GPU is (asked in a child process, so a broken
// driver cannot take ksynth down) and nvcc's cubin for it with ptxas's resource figures.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ksynth::gpu {

struct DeviceInfo {
  bool present = false;
  std::string why; // not present: why ("no CUDA driver (...)", "cuInit: ...", "no device")
  std::string name;
  int driverVersion = 0;
  int ccMajor = 0, ccMinor = 0;
  int sms = 0;
  double clockKHz = 0, memClockKHz = 0;
  int busWidthBits = 0;
  int64_t l2Bytes = 0, totalMem = 0;
  int maxThreadsPerBlock = 0, maxSharedPerBlock = 0, maxSharedOptin = 0, maxRegistersPerBlock = 0;
  std::array<int, 3> maxBlock{}, maxGrid{};

  std::string arch() const { return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor); }
  // Peak DRAM bandwidth (GB/s) and f32 (or f64) FMA throughput (GFLOP/s); 0 when unknown.
  double peakGBs() const;
  double peakGflops(bool f64) const;
  nlohmann::json toJson() const;
  static DeviceInfo fromJson(const nlohmann::json &j);
};

// Runs `self __gpu-probe` (self: this executable) and reads its answer.
DeviceInfo probeDevice(const std::string &self, double timeoutS = 60);
// The child's side: prints DeviceInfo as JSON on stdout.
int probeMain();

struct CubinResult {
  bool ok = false;
  std::string note;   // not ok: why (nvcc missing, failed, timed out)
  std::string nvcc, arch, cubin, log;
  std::string symbol; // the kernel's entry symbol, as ptxas names it (empty: not seen)
  int registers = -1, spillStores = -1, spillLoads = -1, sharedBytes = -1, stackBytes = -1;
  double ms = 0;
  nlohmann::json toJson() const;
};

// nvcc -cubin -arch=ARCH -O3 --resource-usage for `cuFile` into `outCubin`; the figures are
// ptxas's for the entry function named `kernel` (C++-mangled or not).
CubinResult compileCubin(const std::string &nvcc, const std::string &cuFile, const std::string &kernel,
                         const std::string &arch, const std::vector<std::string> &preprocessorArgs,
                         const std::string &outCubin, double timeoutS = 180);

// The base name of a (possibly Itanium-mangled) function name: "_Z6matmulPKfS0_Pfiii" ->
// "matmul", "vec_add" -> "vec_add".
std::string baseName(const std::string &symbol);

} // namespace ksynth::gpu
