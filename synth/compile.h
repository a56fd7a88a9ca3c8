// synth/ compile check: nvcc on a candidate, where nvcc exists (on PATH). The candidate is
// only compiled (-c), never run; ptxas's register and shared-memory use is recorded. Without
// nvcc the check is skipped and says so: ksynth builds and runs on machines without CUDA.
#pragma once

#include <optional>
#include <string>

namespace ksynth::synth {

struct CompileResult {
  enum class Status { Ok, Failed, Skipped };
  Status status = Status::Skipped;
  std::string output;    // nvcc's messages (errors fed back to the model)
  std::string note;      // Skipped: why
  int registers = -1;    // ptxas: registers per thread, -1 unknown
  int sharedBytes = -1;  // ptxas: static shared memory per block, -1 unknown
  double ms = 0;
};

// The nvcc to use: `requested` when not empty ("none" disables the check), else nvcc on PATH.
std::optional<std::string> findNvcc(const std::string &requested);

// Compiles `cuFile` (object code to a temporary file, removed); `timeoutS` bounds nvcc.
CompileResult compileCheck(const std::string &nvcc, const std::string &cuFile, double timeoutS = 120);

} // namespace ksynth::synth
