// A candidate's launch: its `// ksynth:launch grid=(...) block=(...) [shared=BYTES]` comment
// line (DESIGN.md "Kernel binding") and the X[,Y[,Z]] lists of --grid/--block.
#pragma once

#include <string>
#include <vector>

namespace ksynth::driver {

// "(a, (b + 1) / 2)" or "[a,b]" or "a,b" -> {"a", "(b + 1) / 2"}: top-level commas only.
std::vector<std::string> splitDims(std::string s);

struct LaunchLine {
  bool found = false;
  std::vector<std::string> grid, block;
  std::string shared; // shared=BYTES (dynamic shared memory), empty if absent
  unsigned line = 0;
};
LaunchLine findLaunchLine(const std::string &file);

} // namespace ksynth::driver
