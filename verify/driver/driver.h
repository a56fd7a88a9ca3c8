// The verification driver: one kernel file (and optionally its spec) in, a typed report out.
// It parses, binds, runs the safety checks and, with a spec, the concrete tests, the
// symbolic proof and the bounded fallback in the order combine.h states, and writes the
// proof bundle. `ksynth verify`, `ksynth run` and the synthesis loop all call it; none of
// them goes through the command line or parses printed output.
#pragma once

#include "verify/driver/report.h"
#include "verify/frontend/frontend.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace ksynth::driver {

struct VerifyRequest {
  std::string file;   // the kernel file
  std::string kernel; // only this __global__ kernel (empty: all, or the spec's)
  std::string spec;   // the spec file (empty: safety only)
  // Launch dimensions as C expressions over the kernel's scalars; a list that is not set
  // falls back to the file's `// ksynth:launch` line, then to symbolic.
  std::vector<std::string> block, grid;
  bool blockSet = false, gridSet = false;
  frontend::Options fe; // -D, -I
  // The obligations to decide (names as in --checks); `checksSet` false: all of them
  // (coverage and equivalence only with a spec). "all" may be among them.
  std::set<std::string> checks;
  bool checksSet = false;
  std::vector<std::string> assumes; // C expressions (--assume)
  double timeoutS = 10;             // per solver query
  double limitS = 0;                // the whole verification (--timeout); 0: none
  bool noTests = false;             // coverage and equivalence by proof alone
  // The integers every host-code launch passes to a parameter are assumed (only where the
  // launch itself is the host code's: no --block, --grid, launch line or spec).
  bool hostArgs = false;
  int bound = 6;                    // the bounded fallback's bound (0: off)
  bool boundedOnly = false;         // no symbolic spec proof, the fallback alone
  double boundBudgetS = 10;
  bool dumpKir = false;   // FileReport::kirText
  bool stats = false;     // FileReport::withStats
  std::string dumpSmt;    // write every query there
  std::string proofDir;   // write a proof bundle there (bundle/bundle.h)
  std::vector<std::string> command; // recorded in the proof bundle as what was run
  // Called from the verifying thread before the first kernel and after each one with the
  // report so far: the kernels verified, then the rest as timed out (what a command ended at
  // its --timeout can still print; none of it is a proof bundle).
  std::function<void(const FileReport &)> progress;
};

// The checks a request decides: "all" expanded; coverage and equivalence need a spec
// (false, with why, when named without one).
bool resolveChecks(const VerifyRequest &req, std::set<std::string> &out, std::string &why);

// Never throws for bad input: malformed files and usage errors are outcomes of the report.
FileReport verifyFile(const VerifyRequest &req);

} // namespace ksynth::driver
