// The `ksynth` command line (subcommands, options, reports, exit codes).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ksynth::cli {
int main(int argc, char **argv);

// `ksynth verify ARGS...` as a library call (the synthesis loop verifies its candidates
// with it): what the command would print goes to `out` and `err`, the exit code is
// returned.
// `ksynth run ARGS...` (tools/run.cpp).
int runMain(const std::vector<std::string> &args);

int verifyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
} // namespace ksynth::cli
