// synth/ prompts: the versioned templates of synth/prompts/*.txt (embedded in the binary at
// build time) and their rendering for one spec. A template's leading "# " lines are comments
// for maintainers and are never sent; the first of them names the prompt version.
#pragma once

#include "verify/spec/spec.h"

#include <map>
#include <string>

namespace ksynth::synth {

// The template text without its comment lines; aborts on an unknown name (our bug).
std::string promptTemplate(const std::string &name);
// "v1": from the system template's first comment line ("# ksynth prompt v1: ...").
std::string promptVersion();

// Replaces every {{key}}; a placeholder without a value is left as is and reported in
// `missing` (tests check it stays empty).
std::string fill(const std::string &tmpl, const std::map<std::string, std::string> &values,
                 std::string *missing = nullptr);

// The parameter list the spec binds to: `const float *A, const float *B, float *C, int N`
// (inputs const, outputs and in-place tensors writable, then scalars, then sizes).
std::string kernelSignature(const spec::Spec &s);

// The first user turn: the spec's plain-language rendering and its text, the required
// signature and launch line, the CUDA subset and what "proven" requires.
std::string taskPrompt(const spec::Spec &s, const std::string &specFile, const std::string &specText);

} // namespace ksynth::synth
