// Fuzz target: the spec reader and parser (verify/spec/parser.h) on arbitrary bytes.
#include "verify/spec/parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ksynth::spec::ParseResult r = ksynth::spec::parse(std::string(reinterpret_cast<const char *>(data), size));
  // A spec with no errors must have been built; one with errors must say where.
  if (r.spec.has_value() == !r.errors.empty())
    __builtin_trap();
  return 0;
}
