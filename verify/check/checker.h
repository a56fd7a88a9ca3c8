// The safety obligations of one kernel, decided over symbolic sizes. Two symbolic threads
// T1, T2 (GPUVerify's two-thread reduction) are executed symbolically (symexec.h); with B the
// launch limits, the assumptions and both threads' ranges, each obligation is one query that
// must be unsat:
//   race.A     B ∧ ∨_{a,b} pc1(a) ∧ pc2(b) ∧ addr1(a) = addr2(b) ∧ T1 ≠ T2 ∧ sync(a,b)
//              over accesses a, b of array A, one a write, not both atomic;
//              sync = same block ∧ bc1 = bc2 ∧ (same warp ⇒ wc1 = wc2), or (global
//              memory only) different blocks
//   barrier    B ∧ ∨_c pc1(c) ∧ pc2(c) ∧ iters1 = iters2 ∧ cond1 ≠ cond2, T1 and T2 in one
//              block, over conditions c that decide whether a barrier is reached
//   bounds.A   B ∧ ∨_a pc(a) ∧ ¬(0 ≤ index(a) < extent(A))
//   overflow   B ∧ ∨_s pc(s) ∧ ¬ok(s) over signed arithmetic, divisions and shifts
//   assert     B ∧ ∨_s pc(s) ∧ ¬cond(s)
// A `sat` answer is a candidate only: the interpreter replays it (interp.h) and it is reported
// as refuted only if the threads really do it without depending on values loaded from
// memory; otherwise the candidate is excluded and the query asked again, and the obligation
// ends unknown with the reason.
#pragma once

#include "verify/ir/kir.h"
#include "verify/smt/solver.h"

#include <nlohmann/json.hpp>

#include <array>
#include <set>
#include <string>
#include <vector>

namespace ksynth::check {

struct Note {
  ir::Loc loc;
  std::string text;
};

// Bounded: holds for every size up to a stated bound only (equiv/bounded.h), never all sizes.
enum class Status { Proven, Refuted, Unknown, Bounded };

// The last header line of every dumped query: how to run it.
inline constexpr const char *kRunWith =
    "\nrun: z3 FILE (if it gives up: z3 smt.arith.solver=2 FILE), or cvc5 --incremental FILE (the goal follows a "
    "(push 1))";
const char *statusName(Status s);

// What an obligation is about. Coverage and equivalence come from a spec (verify/driver);
// Assumptions is the vacuity check (the preconditions admit no launch at all).
// Warp: the rules of warp-level primitives (a shuffle reads a lane that exists, its width is valid).
// Align: a vector access is aligned to its vector type.
enum class Kind { Race, Barrier, Bounds, Overflow, Assert, Warp, Align, Coverage, Equivalence, Assumptions };
const char *kindName(Kind k); // "race", ... as in --checks and the JSON report
// The kind named `name`; false for a name no obligation has.
bool kindFromName(const std::string &name, Kind &out);

struct Obligation {
  Kind kind = Kind::Assumptions;
  std::string name; // query name, e.g. race.s
  Status status = Status::Unknown;
  std::string reason;  // unknown: why; refuted: the headline
  ir::Loc loc;         // where to point the diagnostic
  std::vector<Note> notes;
  double ms = 0;
  nlohmann::json witness; // refuted: sizes, threads, accesses
  int bound = 0;          // bounded: every dim <= bound was checked
  // Options::dumpSmtDir: the query files (names in that directory) whose `unsat` is this
  // obligation holding; empty for one proven without a query (nothing could violate it).
  std::vector<std::string> queries;
};

struct Options {
  std::set<std::string> checks = {"race", "barrier", "bounds", "overflow", "assert", "warp", "align"};
  std::array<ir::ExprPtr, 3> block{}, grid{}; // nullptr: symbolic
  std::vector<ir::ExprPtr> assumes;           // extra preconditions (--assume)
  unsigned timeoutMs = 10000;
  std::string dumpSmtDir;
  // Where every query is recorded (the verification's log, shared with the spec proofs);
  // null: the checker keeps its own, dumping to dumpSmtDir.
  smt::QueryLog *log = nullptr;
  // Summarise loop variables whose closed form holds only without wrap-around (validated by
  // induction; when that fails, the kernel is re-checked with those variables unknown).
  bool wrapFreeSummaries = true;
};

struct KernelReport {
  std::string name;
  Status verdict = Status::Unknown;
  std::vector<Obligation> obligations;
  std::vector<std::string> assumptions;
  std::vector<std::string> abstractions;
  std::string launch;
  // Options::dumpSmtDir: queries every proven obligation also rests on (the induction that
  // justifies loop summaries), by file name.
  std::vector<std::string> lemmas;
};

KernelReport verifyKernel(const ir::Kernel &k, const Options &opts);

} // namespace ksynth::check
