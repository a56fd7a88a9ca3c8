// ksynth's version and the git revision it was built from (set by the build), recorded in
// reports and proof bundles.
#pragma once

namespace ksynth::util {
const char *version();     // "0.1.0"
const char *gitRevision(); // short hash, or "unknown"
} // namespace ksynth::util
