// Fuzz target: the kernel frontend (clang, the nesting scan, the lowering to KIR) on
// arbitrary source text.
#include "verify/frontend/frontend.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ksynth::frontend::Options opts;
  ksynth::frontend::ParseResult r =
      ksynth::frontend::parseSource(std::string(reinterpret_cast<const char *>(data), size), "fuzz.cu", opts);
  if (r.parsed && r.kernels.size() != r.notes.size())
    __builtin_trap();
  return 0;
}
