// How the stages of `ksynth verify --spec` are ordered and how their findings combine into
// verdicts. Pure functions over what each stage found, so the policy is unit-tested
// (tests/unit/driver/combine_test.cpp) apart from the stages themselves:
//   1. concrete tests at small sizes (equiv/concrete.h): a failure refutes the obligation it
//      shows wrong (a real execution, replayed);
//   2. the safety proof (race, barrier, bounds, overflow) must be proven before anything is
//      proven about what the kernel stores (race freedom is what lets one thread's program
//      decide what it stores);
//   3. the symbolic proof (equiv/prove.h) decides coverage and equivalence per output tensor,
//      over every admitted size;
//   4. the bounded fallback (equiv/bounded.h) may turn what is still unknown into bounded, or
//      refute it with a replayed counterexample; it never proves;
//   5. a kernel is refuted if anything is, else unknown if anything is, else bounded if
//      anything is, else proven; a file likewise over its kernels.
#pragma once

#include "verify/check/checker.h"

#include <vector>

namespace ksynth::driver {

// What the concrete tests (stage 1) found, for one spec obligation.
enum class Tested {
  Agrees,      // every test agreed with the spec (or none ran)
  FailedHere,  // a test refuted this obligation (its kind and tensor)
  FailedOther  // a test failed on another obligation: testing stopped there
};

// Stage 3 runs only after the tests agreed and the safety obligations are proven, and not
// under --bounded-only.
bool attemptSymbolicProof(bool testsAgree, bool safetyProven, bool boundedOnly);

// Stage 4 runs only after the tests agreed and the safety obligations are proven, with a
// bound above 0, and only for obligations still unknown.
bool attemptBounded(bool testsAgree, bool safetyProven, int bound);

// The status of one coverage or equivalence obligation from stages 1 and 3: refuted by a
// failed test, proven only when the tests agreed and the proof holds, else unknown.
check::Status specObligationStatus(Tested tested, check::Status proof);

// A kernel's verdict once the spec obligations are added: `safety` is its verdict from
// the safety checks alone, `testsFailed` whether any concrete test failed.
check::Status kernelVerdict(check::Status safety, const std::vector<check::Obligation> &all, bool testsFailed);

// A file's verdict over its kernels' (none: proven, since nothing was left unproven; a
// file with no kernel is malformed before this is asked).
check::Status fileVerdict(const std::vector<check::Status> &kernels);

} // namespace ksynth::driver
