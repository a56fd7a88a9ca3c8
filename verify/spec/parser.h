// The spec-file parser: S-expressions -> a typed, name-resolved Spec (spec.h). Every problem
// is a Diagnostic at its line and column, all of them reported, not only the first: syntax,
// unbound names, arity, tensor reads with the wrong number of indices, reads of outputs,
// `old` of a tensor that is not inout, out/inout tensors without ensures (or with two),
// duplicate names, Int/Real/Bool mismatches (an Int where a Real is expected is promoted).
// Facts that need a solver (assumptions satisfiable, ranges non-empty, reads in bounds) are
// checked by check.h on the parsed Spec.
#pragma once

#include "verify/spec/spec.h"

#include <optional>
#include <string>
#include <vector>

namespace ksynth::spec {

struct ParseResult {
  std::optional<Spec> spec; // set only when there are no errors
  std::vector<Diagnostic> errors;
};

ParseResult parse(const std::string &text);
// Reads the file; an unreadable file is one diagnostic without a location.
ParseResult parseFile(const std::string &path);

} // namespace ksynth::spec
