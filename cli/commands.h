// The `ksynth` commands, one file each in cli/; cli/main.cpp dispatches to them. Each takes
// its arguments without the command name and returns the exit code (util/exit_codes.h).
#pragma once

#include <iostream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ksynth::cli {

// The whole command line (cli/main.cpp's one line).
int main(int argc, char **argv);

int verifyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err); // verify.cpp
int specCommand(const std::vector<std::string> &args);                                        // spec.cpp
int checkProofCommand(const std::vector<std::string> &args);                                  // check_proof.cpp
int runCommand(const std::vector<std::string> &args);                                         // run.cpp
int proveCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err); // prove.cpp
int benchCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err); // bench.cpp

// prove.cpp: the provider a synthesis run uses (--provider, else the preset named by --model,
// else the API key that is set) and its default model; the error printed, exit 64, when none.
std::optional<int> resolveProvider(std::string &provider, std::string &model, std::ostream &err);
// prove.cpp: the specs that have a bundled authored transcript (--provider replay).
std::vector<std::string> bundledSpecs();

// help.cpp: `ksynth help`, and the usage errors of verify/spec (exit 64).
void printHelp(std::ostream &out);
void printProveHelp(std::ostream &out);
int usage(const std::string &msg, std::ostream &errs = std::cerr);
extern const char *const kProveUsage;

} // namespace ksynth::cli
