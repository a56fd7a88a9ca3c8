#include "gpu/device.h"

#include "gpu/cuda.h"
#include "util/process.h"

#include <iostream>
#include <regex>
#include <sstream>

namespace ksynth::gpu {

double DeviceInfo::peakGBs() const {
  if (memClockKHz <= 0 || busWidthBits <= 0)
    return 0;
  return 2.0 * memClockKHz * 1e3 * (busWidthBits / 8.0) / 1e9; // double data rate
}

double DeviceInfo::peakGflops(bool f64) const {
  if (clockKHz <= 0 || sms <= 0)
    return 0;
  // FMA lanes per SM and clock, by compute capability (f32; f64 on the data-centre parts).
  int cc = ccMajor * 10 + ccMinor;
  int lanes = 0;
  if (f64)
    lanes = cc == 60 || cc == 70 || cc == 80 ? 32 : cc == 90 || cc == 100 ? 64 : 2;
  else
    lanes = cc == 60 || (cc >= 70 && cc <= 80) ? 64 : 128; // 5.x, 6.1, 6.2, 8.6 and later: 128
  return 2.0 * lanes * sms * clockKHz / 1e6;
}

nlohmann::json DeviceInfo::toJson() const {
  return {{"present", present}, {"why", why}, {"name", name}, {"driver_version", driverVersion},
          {"cc", {ccMajor, ccMinor}}, {"sms", sms}, {"clock_khz", clockKHz}, {"mem_clock_khz", memClockKHz},
          {"bus_width_bits", busWidthBits}, {"l2_bytes", l2Bytes}, {"total_mem", totalMem},
          {"max_threads_per_block", maxThreadsPerBlock}, {"max_shared_per_block", maxSharedPerBlock},
          {"max_shared_optin", maxSharedOptin}, {"max_registers_per_block", maxRegistersPerBlock},
          {"max_block", maxBlock}, {"max_grid", maxGrid}};
}

DeviceInfo DeviceInfo::fromJson(const nlohmann::json &j) {
  DeviceInfo d;
  d.present = j.value("present", false);
  d.why = j.value("why", "");
  d.name = j.value("name", "");
  d.driverVersion = j.value("driver_version", 0);
  if (j.contains("cc")) {
    d.ccMajor = j["cc"][0];
    d.ccMinor = j["cc"][1];
  }
  d.sms = j.value("sms", 0);
  d.clockKHz = j.value("clock_khz", 0.0);
  d.memClockKHz = j.value("mem_clock_khz", 0.0);
  d.busWidthBits = j.value("bus_width_bits", 0);
  d.l2Bytes = j.value("l2_bytes", int64_t{0});
  d.totalMem = j.value("total_mem", int64_t{0});
  d.maxThreadsPerBlock = j.value("max_threads_per_block", 0);
  d.maxSharedPerBlock = j.value("max_shared_per_block", 0);
  d.maxSharedOptin = j.value("max_shared_optin", 0);
  d.maxRegistersPerBlock = j.value("max_registers_per_block", 0);
  if (j.contains("max_block"))
    d.maxBlock = j["max_block"].get<std::array<int, 3>>();
  if (j.contains("max_grid"))
    d.maxGrid = j["max_grid"].get<std::array<int, 3>>();
  return d;
}

int probeMain() {
  DeviceInfo d;
  const Driver &cu = driver();
  auto finish = [&]() {
    std::cout << d.toJson().dump() << "\n";
    return 0;
  };
  if (!cu.loaded()) {
    d.why = cu.error;
    return finish();
  }
  if (CUresult r = cu.cuInit(0); r != 0) {
    d.why = "cuInit: " + cu.errorText(r);
    return finish();
  }
  int n = 0;
  if (cu.cuDeviceGetCount(&n) != 0 || n < 1) {
    d.why = "the CUDA driver sees no device";
    return finish();
  }
  CUdevice dev = 0;
  cu.cuDeviceGet(&dev, 0);
  char name[256] = {0};
  cu.cuDeviceGetName(name, sizeof name - 1, dev);
  d.name = name;
  cu.cuDriverGetVersion(&d.driverVersion);
  auto attr = [&](int a) {
    int v = 0;
    return cu.cuDeviceGetAttribute(&v, a, dev) == 0 ? v : 0;
  };
  d.ccMajor = attr(kComputeCapabilityMajor);
  d.ccMinor = attr(kComputeCapabilityMinor);
  d.sms = attr(kMultiprocessorCount);
  d.clockKHz = attr(kClockRateKHz);
  d.memClockKHz = attr(kMemoryClockRateKHz);
  d.busWidthBits = attr(kGlobalMemoryBusWidth);
  d.l2Bytes = attr(kL2CacheSize);
  d.maxThreadsPerBlock = attr(kMaxThreadsPerBlock);
  d.maxSharedPerBlock = attr(kMaxSharedPerBlock);
  d.maxSharedOptin = attr(kMaxSharedPerBlockOptin);
  d.maxRegistersPerBlock = attr(kMaxRegistersPerBlock);
  d.maxBlock = {attr(kMaxBlockDimX), attr(kMaxBlockDimY), attr(kMaxBlockDimZ)};
  d.maxGrid = {attr(kMaxGridDimX), attr(kMaxGridDimY), attr(kMaxGridDimZ)};
  size_t mem = 0;
  cu.cuDeviceTotalMem(&mem, dev);
  d.totalMem = static_cast<int64_t>(mem);
  d.present = true;
  return finish();
}

DeviceInfo probeDevice(const std::string &self, double timeoutS) {
  util::ProcessResult pr = util::runProcess({self, "__gpu-probe"}, timeoutS);
  DeviceInfo d;
  if (!pr.ok()) {
    d.why = "the device probe " + pr.how(timeoutS);
    return d;
  }
  // The last line is the answer (a driver may print warnings first).
  size_t end = pr.output.find_last_not_of("\n");
  size_t start = pr.output.rfind('\n', end == std::string::npos ? 0 : end);
  std::string last = pr.output.substr(start == std::string::npos ? 0 : start + 1);
  try {
    return DeviceInfo::fromJson(nlohmann::json::parse(last));
  } catch (const std::exception &e) {
    d.why = "the device probe answered: " + pr.output.substr(0, 300);
    return d;
  }
}

std::string baseName(const std::string &symbol) {
  if (symbol.rfind("_Z", 0) != 0)
    return symbol;
  size_t i = 2;
  if (i < symbol.size() && symbol[i] == 'N') // nested name: the last component
    ++i;
  std::string last;
  while (i < symbol.size() && isdigit(static_cast<unsigned char>(symbol[i]))) {
    size_t len = 0;
    while (i < symbol.size() && isdigit(static_cast<unsigned char>(symbol[i])))
      len = len * 10 + static_cast<size_t>(symbol[i++] - '0');
    if (i + len > symbol.size())
      return symbol;
    last = symbol.substr(i, len);
    i += len;
    if (symbol[2] != 'N')
      break;
  }
  return last.empty() ? symbol : last;
}

nlohmann::json CubinResult::toJson() const {
  nlohmann::json j = {{"ok", ok}, {"nvcc", nvcc}, {"arch", arch}, {"ms", ms}, {"symbol", symbol}};
  if (!note.empty())
    j["note"] = note;
  if (ok)
    j["ptxas"] = {{"registers", registers}, {"spill_stores", spillStores}, {"spill_loads", spillLoads},
                  {"shared_bytes", sharedBytes}, {"stack_bytes", stackBytes}};
  else
    j["log"] = log;
  return j;
}

CubinResult compileCubin(const std::string &nvcc, const std::string &cuFile, const std::string &kernel,
                         const std::string &arch, const std::vector<std::string> &preprocessorArgs,
                         const std::string &outCubin, double timeoutS) {
  CubinResult r;
  r.nvcc = nvcc;
  r.arch = arch;
  r.cubin = outCubin;
  std::vector<std::string> argv = {nvcc, "-cubin", "-arch=" + arch, "-O3", "--resource-usage", "-o", outCubin};
  argv.insert(argv.end(), preprocessorArgs.begin(), preprocessorArgs.end());
  argv.push_back(cuFile);
  util::ProcessResult pr = util::runProcess(argv, timeoutS);
  r.ms = pr.ms;
  r.log = pr.output;
  if (!pr.ok()) {
    r.note = "nvcc " + pr.how(timeoutS);
    return r;
  }
  r.ok = true;
  // ptxas prints, per entry function: "Compiling entry function 'NAME' for 'sm_90'",
  // "Function properties for NAME", "N bytes stack frame, N bytes spill stores, N bytes
  // spill loads", "Used N registers, ... N bytes smem, ...".
  static const std::regex entry(R"((?:Compiling entry function|Function properties for) '?([A-Za-z0-9_$]+))");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)"), smem(R"((\d+) bytes smem)");
  std::string current;
  std::istringstream in(pr.output);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, entry))
      current = m[1];
    if (baseName(current) != kernel)
      continue;
    r.symbol = current;
    if (std::regex_search(line, m, frame)) {
      r.stackBytes = std::stoi(m[1]);
      r.spillStores = std::stoi(m[2]);
      r.spillLoads = std::stoi(m[3]);
    }
    if (std::regex_search(line, m, used)) {
      r.registers = std::stoi(m[1]);
      r.sharedBytes = std::regex_search(line, m, smem) ? std::stoi(m[1]) : 0; // absent when none
    }
  }
  return r;
}

} // namespace ksynth::gpu
