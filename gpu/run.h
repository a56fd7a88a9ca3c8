// gpu/ running a plan (plan.h) and checking it: on the GPU through a child process that
// loads the CUDA driver (a kernel that hangs or crashes takes only the child down), or on
// the concrete interpreter (small sizes, not timed). Every repeat runs on fresh inputs with
// every output poisoned first (NaN bytes for floats, all-ones for integers), so a kernel
// that leaves elements unwritten or returns a previous call's results cannot pass; its
// outputs are compared with the spec evaluated in double precision (spec/eval.h).
//
// An element passes when |got - want| <= rtol * |want| + rtol * scale, where scale is the
// root mean square of the tensor's reference values in that repeat (so elements that cancel
// to about zero are judged against the tensor's magnitude). rtol by element type: f64 1e-9,
// f32 1e-4, f16 1e-2, bf16 2e-2, integers exact. NaN passes only where the spec's value is
// NaN; elements where the spec's value is not finite are counted, not compared.
#pragma once

#include "gpu/plan.h"
#include "verify/ir/kir.h"
#include "verify/spec/bind.h"
#include "verify/spec/spec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ksynth::gpu {

double defaultRtol(spec::ElemType t);

struct TensorCheck {
  std::string name;
  spec::ElemType type = spec::ElemType::F32;
  double rtol = 0;
  int64_t compared = 0, mismatched = 0, notFinite = 0, unwritten = 0; // unwritten: NaN where a number was due
  double maxAbs = 0, maxRel = 0;
  nlohmann::json firstMismatch; // repeat, index, got, want
};

struct RunReport {
  std::string backend; // "gpu" or "cpu"
  bool ran = false;    // every repeat ran to completion
  std::string failure; // set when not: "hang", "fault", "launch", "resources", "setup", "reference"
  std::string error;   // what happened
  int repeats = 0;     // repeats run and compared (warm-ups included)
  std::vector<TensorCheck> checks;
  bool timed = false;
  std::string notTimed;      // why not
  std::vector<double> timesMs; // timed repeats (warm-ups excluded)
  nlohmann::json function;     // the loaded function's registers, shared and local bytes
  double ms = 0;               // wall time of the whole run
  bool agrees() const;         // ran, and every compared element passed
  nlohmann::json toJson() const;
};

// Folds one repeat's outputs into `checks` (one per out/inout tensor, in plan order):
// `got[t]` holds tensor t's compared elements (all, or TensorPlan::checked), in order.
// Returns false with `error` when the reference cannot be evaluated.
bool compareRepeat(const Plan &p, const spec::Spec &s, int repeat, const std::vector<std::vector<double>> &got,
                   double rtolOverride, std::vector<TensorCheck> &checks, std::string &error);

// The concrete interpreter as the device: floats in their own precision, outputs poisoned
// with NaN, up to 2^18 threads.
RunReport runOnCpu(const Plan &p, const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                   double rtolOverride);

// The GPU: `self __gpu-run DIR` with DIR/plan.json and DIR/kernel.cubin, killed after
// `timeoutS`; its outputs are compared here.
RunReport runOnGpu(const Plan &p, const spec::Spec &s, const std::string &self, const std::string &dir,
                   double timeoutS, double rtolOverride);

// The child's side of runOnGpu.
int gpuRunMain(const std::string &dir);

} // namespace ksynth::gpu
