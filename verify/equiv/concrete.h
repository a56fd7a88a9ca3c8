// Testing a kernel against its spec at concrete sizes: the whole grid runs on the concrete
// interpreter (interp.h, runGrid) on random inputs, and every element of every out/inout
// tensor is compared with the spec's evaluator (spec/eval.h). This is not a proof of
// anything: it finds counterexamples, each of which is a real execution (sizes, launch,
// inputs, the element, the expected and the computed value, the writing threads), and it
// says at which sizes the kernel agreed.
//
// What counts as a failure at one size (in this order):
//   coverage     an out element no thread stores to; an element stored by two different
//                threads without atomics; a store to an `in` tensor
//   equivalence  a final value that differs from the spec's (relative 1e-6: floats run in
//                double, see Env::wideFloats), or that depends on memory the launch did not
//                write (an `out` tensor read before it is written, uninitialised shared memory)
// A run that faults (out of bounds, overflow, barrier divergence) is not compared; the
// safety obligations speak for those, and the fault is listed.
#pragma once

#include "verify/interp/interp.h"
#include "verify/ir/kir.h"
#include "verify/spec/bind.h"
#include "verify/spec/spec.h"

#include "verify/spec/eval.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::equiv {

using Sizes = std::map<std::string, int64_t>; // spec dim -> value

struct ConcreteOptions {
  std::array<ir::ExprPtr, 3> block{}, grid{}; // the launch (nullptr: 1; both needed)
  std::vector<Sizes> sizes;                   // sizes to test; empty: chosen (chooseSizes)
  unsigned seed = 1;
  // Stop starting new runs once the runs so far took this many interpreter steps (about 2 s
  // on the 2-core machine): a budget in steps makes the tests, and so their verdicts and
  // counterexamples, the same on every run and under any load.
  uint64_t budgetSteps = 4'000'000;
  double budgetSeconds = 8; // a guard: also stop after this (CPU seconds of the calling thread)
  int maxRuns = 16;
  // Given inputs (dims, scalars, in/inout tensors) instead of random ones: one run at
  // inputs->dims (replaying a counterexample found elsewhere).
  std::optional<spec::Inputs> inputs;
};

enum class Outcome { Agrees, Coverage, Equivalence };

struct ConcreteReport {
  Outcome outcome = Outcome::Agrees;
  std::string tensor;   // the failing output tensor
  std::string headline; // one line: what went wrong
  nlohmann::json witness; // sizes, launch, element, expected/computed, writers, inputs
  std::vector<Sizes> agreed;      // sizes at which every output agreed
  std::vector<std::string> skipped; // "N=3: assumption ... does not hold", faults, limits
  std::string unavailable; // non-empty: no test could run (why)
};

// Sizes near the launch's block extents (1, 2, 3, b - 1, b + 1: all dims alike, one dim at a
// time with the others 1, seeded mixes), three random ones up to max(40, b + 3), and the first
// sizes at which the grid grows a block (one dim at a time, then all), cheapest first: the cost of a size is the larger of the product of its dims and the number of
// threads its launch runs (one block of 256 per row makes R = 255 dear, C = 255 cheap).
std::vector<Sizes> chooseSizes(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                               const ConcreteOptions &o);

// One size past the first tile of the launch along every dimension the grid depends on, at
// once: each such dim at the first value that makes the grid grow a block (N = 65 for a grid
// of (N + 63) / 64), from the smallest size every dim may share, the others one past the largest block extent (at most 17), or 3 where
// that is too much work. Where a kernel's thread covers a tile of several elements (a
// register tile) the default sizes stay within one tile; this is the size a failed proof is
// retested at. For a grid that depends on no dim and a problem of one dim: the size one past
// the grid's threads (a short grid stride shows there), then, for a kernel with vector accesses,
// 4 past four times that (a float4 path where N % 4 == 0 reads four elements a thread each sweep). Where the other dims had to stay at 3,
// a second size: those dims one past the block extent (at most 17) with the grid's dims at 3 (a
// matmul's K = 17 at M = N = 3: a slice loop that skips a slice's last column is wrong only
// from K = 16 on). Empty when even the first is too much work.
std::vector<Sizes> tileCrossingSizes(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                                     const ConcreteOptions &o);

ConcreteReport testAgainstSpec(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                               const ConcreteOptions &o);

// "M=3, N=17"
std::string sizesText(const Sizes &sz);

// The index tuple of row-major element `flat` of a tensor of `shape`.
std::vector<int64_t> unflatten(int64_t flat, const std::vector<int64_t> &shape);

// The interpreter's environment for one launch at in.dims with the inputs `in` (dims and
// scalars bound to their kernel parameters, in/inout tensors in memory, out tensors
// poisoned), and the shape of every bound tensor. Not ok (why) when a kernel precondition
// fails (preconditionFails), the launch cannot be evaluated or has over 2^18 threads.
struct LaunchEnv {
  bool ok = false;
  bool preconditionFails = false;
  std::string why;
  interp::Env env;
  std::map<int, std::vector<int64_t>> shapes; // spec tensor -> shape
};
LaunchEnv launchEnv(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const spec::Inputs &in,
                    const std::array<ir::ExprPtr, 3> &block, const std::array<ir::ExprPtr, 3> &grid);

} // namespace ksynth::equiv
