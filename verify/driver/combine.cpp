#include "verify/driver/combine.h"

namespace ksynth::driver {

bool attemptSymbolicProof(bool testsAgree, bool safetyProven, bool boundedOnly) {
  return testsAgree && safetyProven && !boundedOnly;
}

bool attemptBounded(bool testsAgree, bool safetyProven, int bound) { return testsAgree && safetyProven && bound > 0; }

check::Status specObligationStatus(Tested tested, check::Status proof) {
  if (tested == Tested::FailedHere)
    return check::Status::Refuted;
  if (tested == Tested::Agrees && proof == check::Status::Proven)
    return check::Status::Proven;
  return check::Status::Unknown;
}

check::Status kernelVerdict(check::Status safety, const std::vector<check::Obligation> &all, bool testsFailed) {
  bool anyRefuted = testsFailed, anyUnknown = false, anyBounded = false;
  for (const check::Obligation &o : all) {
    anyRefuted |= o.status == check::Status::Refuted;
    anyUnknown |= o.status == check::Status::Unknown;
    anyBounded |= o.status == check::Status::Bounded;
  }
  if (anyRefuted)
    return check::Status::Refuted;
  if (safety != check::Status::Proven && safety != check::Status::Bounded)
    return safety; // unknown stays unknown whatever the spec obligations say
  return anyUnknown ? check::Status::Unknown : anyBounded ? check::Status::Bounded : check::Status::Proven;
}

check::Status fileVerdict(const std::vector<check::Status> &kernels) {
  bool anyRefuted = false, anyUnknown = false, anyBounded = false;
  for (check::Status s : kernels) {
    anyRefuted |= s == check::Status::Refuted;
    anyUnknown |= s == check::Status::Unknown;
    anyBounded |= s == check::Status::Bounded;
  }
  return anyRefuted ? check::Status::Refuted
         : anyUnknown ? check::Status::Unknown
         : anyBounded ? check::Status::Bounded
                      : check::Status::Proven;
}

} // namespace ksynth::driver
