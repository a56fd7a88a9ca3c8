// Concrete evaluation of a spec: given sizes, scalars and input tensors, the values of every
// out/inout tensor. Int terms are computed exactly (128-bit, overflow is an error), Real terms
// in double, the uninterpreted functions as their usual C functions (exp, log, ..., rsqrt =
// 1/sqrt). Used by the CPU runner and to replay equivalence counterexamples: the spec side of
// "expected vs computed".
#pragma once

#include "verify/spec/spec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::spec {

struct TensorValue {
  std::vector<int64_t> shape;
  std::vector<double> data; // row-major; Int tensors hold integral values
};

struct Inputs {
  std::map<std::string, int64_t> dims;
  std::map<std::string, double> scalars;          // Int scalars must be integral
  std::map<std::string, TensorValue> tensors;     // every in and inout tensor (inout: before)
};

struct EvalResult {
  std::string error; // empty when the evaluation succeeded
  std::map<std::string, TensorValue> outputs; // every out and inout tensor (inout: after)
  bool ok() const { return error.empty(); }
};

// Checks the inputs (every dim given and >= 1, every assumption true, every input tensor of
// its spec shape) and computes all outputs. Errors: a violated assumption, a read outside a
// tensor, an empty max-over range, division by zero, Int overflow.
EvalResult evaluate(const Spec &s, const Inputs &in);

// One element of an out/inout tensor (same checks as evaluate, for one element only).
std::optional<double> evaluateElement(const Spec &s, const Inputs &in, const std::string &tensor,
                                      const std::vector<int64_t> &index, std::string &error);

// Elements of one out/inout tensor (flat row-major indices) evaluated in one context, so a
// define (a row's max, a mean) is computed once for all of them. An element whose
// evaluation fails (division by zero, a read outside a tensor) is nullopt, with the first
// such error in `error`; a failure of the inputs themselves fails all.
std::vector<std::optional<double>> evaluateElements(const Spec &s, const Inputs &in, const std::string &tensor,
                                                    const std::vector<int64_t> &flat, std::string &error);

// Empty when every dim is given and >= 1, every scalar is given, and every assumption holds;
// else what fails. Tensors are not needed.
std::string checkAssumptions(const Spec &s, const Inputs &in);

// The extents of tensor `t` for the given dims.
std::optional<std::vector<int64_t>> shapeOf(const Spec &s, int t, const Inputs &in, std::string &error);

} // namespace ksynth::spec
