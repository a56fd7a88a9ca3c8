// What verifying one kernel file produced (`ksynth verify`), as typed data: per kernel its
// obligations, assumptions and abstractions, the file's verdict, or why there is none
// (malformed input, a usage error, an internal error). `toJson()` is the one `--json`
// schema: the command line prints it, proof bundles and the synthesis loop read it;
// `fromJson()` reads it back (tests/unit/driver/golden/ pins the schema).
#pragma once

#include "verify/check/checker.h"
#include "verify/frontend/frontend.h"

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace ksynth::driver {

// The model every report states (README "What proven means").
extern const char *const kModel;

struct KernelResult {
  check::KernelReport report;
  std::vector<frontend::Diagnostic> notes; // the frontend's notes on this kernel
  double ms = 0;
  std::vector<smt::QueryRecord> queries; // every solver query asked for it, in order
};

// The solver queries of a report in numbers (--stats): how many, their answers, the time
// in the solver, and the slowest.
nlohmann::json queryStats(const std::vector<KernelResult> &kernels, size_t slowest = 10);

struct FileReport {
  enum class Outcome {
    Verified,  // every selected kernel has a verdict
    Malformed, // the spec, the kernel file or their binding is malformed (exit 65)
    Usage,     // a usage error (exit 64)
    Internal   // ksynth could not finish (exit 70), e.g. the proof bundle cannot be written
  };
  Outcome outcome = Outcome::Verified;
  std::string file;     // the kernel file as given
  std::string specFile; // empty without a spec
  std::string specName;
  std::set<std::string> checks; // the obligations decided
  std::string solver;           // Z3's version
  std::string version;          // ksynth's
  std::vector<KernelResult> kernels;
  // The headers the file was read with: the CUDA toolkit's include folder whose host-library
  // headers came first (empty: ksynth's declarations alone), and notes where that changed.
  std::string cudaToolkit;
  std::vector<std::string> headerNotes;
  check::Status verdict = check::Status::Unknown; // Verified: over all kernels
  double ms = 0;

  // Not Verified: what the command prints on stderr (clang-style lines, each ending in a
  // newline); `usage` is a message to show with the command's usage text.
  std::string errors, usage;
  // Malformed: what was malformed ("spec", "kernel", "binding"; empty: no --json object,
  // e.g. no kernel in the file) and its errors (a list, or clang's output for "kernel").
  std::string malformedPart;
  nlohmann::json malformedErrors;

  std::string kirText; // --dump-kir: every selected kernel's IR
  bool withStats = false; // toJson() adds "stats" (queryStats)

  // 0 proven, 1 refuted, 2 unknown or bounded, 64, 65, 70 (DESIGN.md "CLI contract").
  int exitCode() const;
  // Every kernel's assumptions, each once, in order.
  std::vector<std::string> assumptions() const;
  // The --json object; null for outcomes that print none (usage, internal, no kernel).
  nlohmann::json toJson() const;
  // Reads a toJson() object back (obligation notes keep their text, not their lines);
  // throws nlohmann::json::exception on a malformed object.
  static FileReport fromJson(const nlohmann::json &j);
};

nlohmann::json obligationJson(const check::Obligation &o);
check::Obligation obligationFromJson(const nlohmann::json &j);

} // namespace ksynth::driver
