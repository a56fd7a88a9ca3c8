// Binding a spec to a kernel (DESIGN.md "Kernel binding"): pointer parameters are the spec's
// tensors, value parameters its dims and scalars, matched by name in any order. The result
// is the list of preconditions the safety checker decides under (as KIR expressions over the
// kernel's parameters, with their C text for reports):
//   D >= 1                              for every dim D
//   the spec's assumptions              those over Int dims/scalars (split at top-level `and`)
//   __len(T) == e1 * e2 * ...           for every tensor T with extents e1, e2, ...
// Assumptions the KIR cannot express (real-valued, or using sums) are listed as unused:
// leaving a precondition out only admits more executions, so proofs stay sound.
#pragma once

#include "verify/ir/kir.h"
#include "verify/spec/spec.h"

#include <map>
#include <string>
#include <vector>

namespace ksynth::spec {

struct BindError {
  bool inSpec = false; // loc is in the spec file (else in the kernel file)
  unsigned line = 0, col = 0;
  std::string message;
};

struct Precondition {
  ir::ExprPtr expr;
  std::string text; // C syntax, accepted by --assume
};

struct Binding {
  std::vector<BindError> errors;
  std::vector<Precondition> preconditions;
  std::vector<std::string> unused; // spec facts not given to the checker, with the reason
  std::map<int, int> tensorOfArray;  // kernel array id -> spec tensor
  std::map<int, int> dimOfVar;       // kernel var id -> spec dim
  std::map<int, int> scalarOfVar;    // kernel var id -> spec scalar
  bool ok() const { return errors.empty(); }
};

Binding bind(const Spec &s, const ir::Kernel &k);

// C text of a uniform KIR expression (constants, parameters, __len, arithmetic, comparisons).
std::string cText(const ir::Kernel &k, const ir::Expr &e);

} // namespace ksynth::spec
