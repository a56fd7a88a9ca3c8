// KIR pass: thread-local arrays whose every access is at a constant index become one scalar
// variable per element.
//
// A register tile (`float acc[4][4]`, read and written in fully unrolled loops) is what a
// compiler keeps in registers; as an array, its contents after a loop that stores to it are
// unknown to the symbolic executor (it cannot tell which elements a loop iteration changed).
// As sixteen scalars, each one is an ordinary loop-carried variable: an accumulator the loop
// summaries and the equivalence prover already understand.
#pragma once

#include "verify/ir/kir.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ksynth::ir {

// Most elements an array may have to be split (a larger one stays an array).
constexpr int64_t kMaxScalarisedElements = 256;

// `decls`: for each local array the frontend declared, the array's id and an empty Block
// statement it emitted where the declaration is (every execution of it starts the array's
// lifetime anew). An array is split when every access is a Load or Store straight through
// the array (no pointer to it is formed) at indices that constant propagation decides, each
// within its extent; the access becomes an Assign, and the declaration's Block gets a Havoc
// per element (the contents of a fresh array are unknown). Every other array is left as it
// is, so that the checks on its accesses (bounds) still see them. Returns the ids split.
std::vector<int> scalariseLocalArrays(Kernel &k, const std::vector<std::pair<int, StmtPtr>> &decls);

// The value of an integer or boolean expression when it does not depend on anything but
// constants and the variables given (var id -> value); nullopt when it does, or when an
// operation on the way would overflow its type, divide by zero or shift out of range.
using ConstEnv = std::map<int, int64_t>;
std::optional<int64_t> foldInt(const Expr &e, const ConstEnv &vars);

} // namespace ksynth::ir
