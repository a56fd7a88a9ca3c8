// The `ksynth` command line (subcommands, options, reports, exit codes).
#pragma once

namespace ksynth::cli {
int main(int argc, char **argv);
} // namespace ksynth::cli
