// Fuzz target: launch dimensions as a launch line or --grid/--block give them: the list
// splitter (driver/launch.h) and the C expression parser (ir/cexpr.h) over a kernel with
// two int parameters N and M.
#include "verify/driver/launch.h"
#include "verify/ir/cexpr.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ksynth::ir::Kernel k = [] {
    ksynth::ir::Kernel k;
    k.name = "k";
    for (const char *n : {"N", "M"}) {
      ksynth::ir::Var v;
      v.name = n;
      v.type = ksynth::ir::Type::i32();
      v.paramIndex = static_cast<int>(k.params.size());
      k.params.push_back({false, static_cast<int>(k.vars.size())});
      k.vars.push_back(v);
    }
    return k;
  }();
  for (const std::string &d : ksynth::driver::splitDims(std::string(reinterpret_cast<const char *>(data), size))) {
    std::string err;
    ksynth::ir::ExprPtr e = ksynth::ir::parseCExpr(k, d, err);
    if (!e && err.empty()) // a failure always says why
      __builtin_trap();
  }
  return 0;
}
