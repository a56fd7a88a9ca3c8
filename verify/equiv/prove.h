// Coverage and equivalence over symbolic sizes, for kernels whose every output element is
// stored by one thread, once, with a value computed from read-only inputs (maps, 2-D grids,
// grid-stride loops, per-thread reductions whose loops accumulate in the spec's order).
// Sound only for kernels free of races and barrier divergence: the caller must have proven
// the safety obligations first (then one thread's program decides what it stores).
//
// With w a symbolic thread of the launch (symexec.h) and, per out tensor T, its store sites:
//   once        a thread stores each element of T at most once (two copies of w's program
//               with independent iterations: same cell ⇒ same site and same iteration)
//   unique      two different threads never store the same element of T
//   complete    every element j of T's spec shape is stored by some thread: witnesses are
//               guessed as terms of j (thread = j mod blockDim, block = j div blockDim, loop
//               iteration = j div stride, ...) and refined against counterexample elements;
//               loops are assumed to terminate (partial correctness, stated)
//   equivalent  at every store to element j: stored value = the spec's ensures at j, over
//               the reals. A loop accumulator is a sum (symexec.h SumDef); a kernel sum and a
//               spec sum are the same number when their trip counts agree and their terms
//               agree at every step (each a query), and are then replaced by one unknown
// Flat addresses are related to index tuples by ground delinearisation facts (X*N + Y =
// Q*N + R with 0 <= Y, R < N implies X = Q and Y = R), which are true of all integers.
// Shared memory: a float load of a shared array is the cell's content at the start of its
// barrier interval (checked: the thread did not store to the cell earlier in the interval),
// replaced by the value a witness writer of the same block stored there, with no store to the
// cell in between. Re-indexed sums (tiles, strided loops) are matched by a summand
// bijection: phi from the kernel's iterations to the spec's index, one-to-one and onto where
// it lands in range, the kernel's term equal to the spec's there and 0 elsewhere.
// Max and min (a loop `m = fmaxf(m, ...)`, an fmaxf tree, the spec's max-over/min-over over a
// symbolic range): the kernel's max is the max of its candidates (terms over the iterations
// of the folds around them, with where they take part); it equals the spec's when the range
// is not empty, every candidate is the spec's term at a checked index map in the range (or
// the lowest finite float of an input's type where the spec reads that input: inputs are
// assumed finite, stated), and every index of the range is the image of a candidate.
// A running argmax (argmin) equals the spec's argmax-over when it walks the spec's range in
// order from its first term and index, replacing only on a strictly better term.
// An in-block Hillis-Steele scan (double-buffered, checked round by round) holds in cell k the
// sum of the cells 0..k before its first round: a kernel sum like any other.
// Every query is `unsat` or the obligation stays unknown; nothing here refutes (the concrete
// tests in concrete.h do). KSYNTH_DEBUG_EQ=1 prints why witnesses and bijections fail.
#pragma once

#include "verify/check/checker.h"
#include "verify/ir/kir.h"
#include "verify/spec/bind.h"
#include "verify/spec/spec.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ksynth::equiv {

struct TensorProof {
  check::Status coverage = check::Status::Unknown;
  check::Status equivalence = check::Status::Unknown;
  std::string coverageReason, equivalenceReason; // why unknown
  // Where coverage is not proven because no writer could be named for some element: the
  // sizes (spec dim -> value) of the solver's example element, for a concrete test at those
  // sizes (the element may really be left unwritten there). Empty otherwise.
  std::map<std::string, int64_t> coverageExampleSizes;
};

struct ProofReport {
  std::string unavailable;                   // non-empty: nothing was attempted (why)
  std::map<std::string, TensorProof> tensors; // out/inout tensors by name
  std::vector<std::string> assumptions;       // stated by the proofs (termination, approximations)
  // check::Options::dumpSmtDir: every query written (file name, answered unsat). The proven
  // obligations rest on the unsat ones, by the rules above; the others were search steps.
  std::vector<std::pair<std::string, bool>> queries;
  double ms = 0;
};

ProofReport proveAgainstSpec(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                             const check::Options &opts);

} // namespace ksynth::equiv
