#include "util/version.h"

#ifndef KSYNTH_VERSION
#define KSYNTH_VERSION "0.0.0"
#endif
#ifndef KSYNTH_GIT
#define KSYNTH_GIT "unknown"
#endif

namespace ksynth::util {
const char *version() { return KSYNTH_VERSION; }
const char *gitRevision() { return KSYNTH_GIT; }
} // namespace ksynth::util
