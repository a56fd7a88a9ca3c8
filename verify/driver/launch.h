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
  // Read from GPUVerify's flag comment (`//--blockDim=64 --gridDim=[4,4] -DWIDTH=8`) in the
  // file's leading comment block, there being no `// ksynth:launch` line.
  bool gpuverify = false;
  std::vector<std::string> defines; // its -D NAME[=VALUE]
  std::vector<std::string> ignored; // its other flags (--no-inline, --warp-sync=32, ...)
};
// The file's `// ksynth:launch` line, else GPUVerify's flag comment in the leading comment
// block (the comments and blank lines before the first line of code); found=false if neither.
LaunchLine findLaunchLine(const std::string &file);
// The same, over a file's text.
LaunchLine findLaunchLineIn(const std::string &text);
// The flag line's -D definitions added to `defines`, but for names already defined there (the
// command line's -D wins; those move to ll.ignored).
void addLineDefines(LaunchLine &ll, std::vector<std::string> &defines);
// "(a,b,c)" for a launch's dimensions, "?" for one left symbolic (empty).
std::string dimsText(const std::vector<std::string> &dims);
// What the report says about what was taken from a GPUVerify flag line ("" for nothing): the
// block and grid unless the command line gave them, its definitions, the flags ignored.
std::string launchLineNote(const LaunchLine &ll, bool blockSet, bool gridSet);

} // namespace ksynth::driver
