#include "util/invariant.h"

#include "util/exit_codes.h"

#include <cstdio>
#include <cstdlib>

namespace ksynth::util {

void invariantFailed(const char *file, int line, const char *cond, const char *reason) {
  std::fprintf(stderr, "ksynth: internal error: %s:%d: invariant '%s' broken: %s\n", file, line, cond, reason);
  std::fflush(stderr);
  std::_Exit(kExitInternal);
}

} // namespace ksynth::util
