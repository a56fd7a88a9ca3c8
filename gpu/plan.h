// gpu/ run plans: one launch of a kernel bound to a spec at concrete sizes, with everything
// the runner needs and nothing of clang or the spec language: the kernel's arguments in
// parameter order, every tensor's type and shape, the launch, the repeats and the output
// elements compared with the reference. A plan travels to the GPU runner (a child process)
// as JSON; both sides derive the inputs of every repeat from it (values.h).
#pragma once

#include "verify/ir/kir.h"
#include "verify/spec/bind.h"
#include "verify/spec/eval.h"
#include "verify/spec/spec.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::gpu {

struct TensorPlan {
  std::string name;
  spec::ElemType type = spec::ElemType::F32;
  spec::Mode mode = spec::Mode::In;
  std::vector<int64_t> shape;
  int64_t elements = 0;
  bool all = false;              // out/inout: every element compared
  int64_t samples = 0;           // else this many per repeat (sampleOf: both ends and draws)
};

struct ArgPlan {
  enum class Kind { Tensor, Int, Float };
  std::string name;
  Kind kind = Kind::Int;
  int tensor = -1;     // Tensor: index into Plan::tensors (= the spec's tensor index)
  unsigned bits = 32;  // Int, Float: the parameter's width
  bool isSigned = true;
  bool bfloat = false; // Float, 16 bits: bfloat16 rather than half
  double value = 0;    // Int, Float (a scalar's: repeat 0's)
  std::string scalar;  // the spec scalar it is (its value changes per repeat), or empty
};

struct Plan {
  std::string spec, kernel;
  std::map<std::string, int64_t> dims;
  std::vector<std::map<std::string, double>> scalars; // per repeat (warm-ups first)
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  int64_t sharedBytes = 0; // dynamic shared memory
  std::vector<TensorPlan> tensors; // every spec tensor, in spec order
  std::vector<ArgPlan> args;       // the kernel's parameters, in order (scalars: repeat 0's)
  std::string symbol;              // the kernel's symbol in the cubin, when known (ptxas)
  // The kernel's own assumptions (__requires/__assume) the proof rests on that could not be
  // checked at these sizes (they depend on threads or memory): "line L: TEXT".
  std::vector<std::string> unchecked;
  uint64_t seed = 1;
  int warmup = 2, repeats = 5; // every one of them on fresh inputs, each compared
  double flops = 0;            // the spec's operation count at these sizes (flopsNote: how)
  std::string flopsNote;
  double bytes = 0;            // every input read once, every output written once (inout both)

  nlohmann::json toJson() const;
  static std::optional<Plan> fromJson(const nlohmann::json &j, std::string &error);
  int64_t threads() const { return grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]; }
  // The value of scalar argument `a` in repeat `repeat`.
  double argValue(const ArgPlan &a, int repeat) const;
};

struct PlanRequest {
  std::map<std::string, double> values; // dims and scalars by name (scalars: drawn per repeat if absent)
  std::array<ir::ExprPtr, 3> block{}, grid{}; // the launch (every one needed)
  ir::ExprPtr shared;                          // dynamic shared bytes, or null (0)
  uint64_t seed = 1;
  int warmup = 2, repeats = 5;
  int64_t maxChecked = 4096; // elements compared per output tensor and repeat, when not all
  double referenceBudget = 2e7; // operations the reference may spend per repeat
};

// The plan, or nullopt with `error` (a dim without a value, a violated assumption or kernel
// precondition, a launch that does not evaluate, a parameter the spec does not bind).
std::optional<Plan> makePlan(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const PlanRequest &r,
                             std::string &error);

// The inputs of repeat `repeat` (dims, scalars and every in/inout tensor), as the runner
// fills them.
spec::Inputs inputsOf(const Plan &p, const spec::Spec &s, int repeat);

// The flat indices of tensor t compared in repeat `repeat`: all, or the first and last 16
// and seeded draws (other elements in every repeat), sorted.
std::vector<int64_t> comparedElements(const Plan &p, size_t t, int repeat);

// The spec's operation count at `dims`: real-valued arithmetic and math functions of every
// output element's term, ranges expanded, and each define counted once per distinct
// argument (a row's max once per row). `note` says what was approximated.
double operationCount(const spec::Spec &s, const std::map<std::string, int64_t> &dims, std::string &note);

} // namespace ksynth::gpu
