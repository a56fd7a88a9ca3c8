// Parses the small C expressions users write outside kernels — launch lines
// (`grid=((n + 255) / 256)`) and `--assume` preconditions (`n <= 4096 && __len(a) >= n`) —
// into KIR expressions over a kernel's parameters.
#pragma once

#include "verify/ir/kir.h"

#include <string>

namespace ksynth::ir {

// Returns nullptr and sets `error` when the text does not parse or names something that is
// not a parameter of `k` (or blockDim/gridDim, or __len(pointer parameter)).
ExprPtr parseCExpr(const Kernel &k, const std::string &text, std::string &error);

} // namespace ksynth::ir
