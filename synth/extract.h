// synth/ extraction: the candidate kernel in a model's reply. Replies come in every shape
// (one fenced block, several, none, the launch line outside the code, two kernels, a whole
// program with main); each problem that stops the candidate from being checked becomes a
// sentence of feedback for the model, never an exception. Whatever can be checked as it
// is, is (host code is ignored by the verifier), with a note.
#pragma once

#include <string>
#include <vector>

namespace ksynth::synth {

struct Extracted {
  bool ok = false;
  std::string code;                  // the candidate file: launch line and kernel
  std::string kernelName;            // of the one __global__ kernel, when found
  std::vector<std::string> problems; // why it cannot be checked; non-empty exactly when !ok
  std::vector<std::string> notes;    // what was accepted with a remark
};

Extracted extractCandidate(const std::string &reply, const std::string &specName);

// The names of the __global__ functions defined in `code` (comments and strings ignored).
std::vector<std::string> globalKernels(const std::string &code);

} // namespace ksynth::synth
