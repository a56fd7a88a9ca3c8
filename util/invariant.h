// Invariants of ksynth itself (CBMC's INVARIANT): a broken one is a ksynth bug, so it stops
// the program with file, line and reason instead of turning into an honest-looking unknown.
// Bad input is never an invariant: it is a diagnostic.
#pragma once

namespace ksynth::util {
[[noreturn]] void invariantFailed(const char *file, int line, const char *cond, const char *reason);
} // namespace ksynth::util

// On in every build type (asserts are part of soundness here).
#define KSYNTH_INVARIANT(cond, reason)                                                                            \
  do {                                                                                                            \
    if (!(cond))                                                                                                  \
      ::ksynth::util::invariantFailed(__FILE__, __LINE__, #cond, reason);                                         \
  } while (0)
