// synth/ command line: `ksynth --spec SPEC.smt --prove ...` (the synthesis loop), and the
// `ksynth` entry point, which hands every other command to tools/cli.h.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ksynth::synth {

// The whole `ksynth` command line.
int main(int argc, char **argv);

// `ksynth --spec SPEC.smt --prove [options]` (args without the program name).
int proveMain(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

// Where the bundled authored transcripts live: $KSYNTH_FIXTURE_DIR, else synth/fixtures of
// the source tree this was built from.
std::string fixtureDir();

} // namespace ksynth::synth
