// The order of the verification stages and how their findings combine (verify/driver/combine.h).
#include "verify/driver/combine.h"

#include <doctest/doctest.h>

using namespace ksynth;
using check::Status;
using driver::Tested;

namespace {

check::Obligation ob(check::Kind k, Status s) {
  check::Obligation o;
  o.kind = k;
  o.name = check::kindName(k);
  o.status = s;
  return o;
}

} // namespace

TEST_CASE("combine: the symbolic proof runs only after agreeing tests and proven safety") {
  CHECK(driver::attemptSymbolicProof(true, true, false));
  CHECK_FALSE(driver::attemptSymbolicProof(false, true, false)); // a test failed: refuted already
  CHECK_FALSE(driver::attemptSymbolicProof(true, false, false)); // safety not proven
  CHECK_FALSE(driver::attemptSymbolicProof(true, true, true));   // --bounded-only
}

TEST_CASE("combine: the bounded fallback runs only after agreeing tests and proven safety, with a bound") {
  CHECK(driver::attemptBounded(true, true, 6));
  CHECK_FALSE(driver::attemptBounded(true, true, 0));
  CHECK_FALSE(driver::attemptBounded(false, true, 6));
  CHECK_FALSE(driver::attemptBounded(true, false, 6));
}

TEST_CASE("combine: a spec obligation is refuted by its failed test, proven only by agreeing tests and a proof") {
  for (Status proof : {Status::Proven, Status::Refuted, Status::Unknown, Status::Bounded}) {
    CAPTURE(check::statusName(proof));
    CHECK(driver::specObligationStatus(Tested::FailedHere, proof) == Status::Refuted);
    // Testing stopped at another obligation's failure: nothing is claimed for this one,
    // whatever a proof said.
    CHECK(driver::specObligationStatus(Tested::FailedOther, proof) == Status::Unknown);
  }
  CHECK(driver::specObligationStatus(Tested::Agrees, Status::Proven) == Status::Proven);
  CHECK(driver::specObligationStatus(Tested::Agrees, Status::Unknown) == Status::Unknown);
  // The symbolic proof never refutes (only a replayed execution does) and never bounds.
  CHECK(driver::specObligationStatus(Tested::Agrees, Status::Refuted) == Status::Unknown);
  CHECK(driver::specObligationStatus(Tested::Agrees, Status::Bounded) == Status::Unknown);
}

TEST_CASE("combine: a kernel's verdict") {
  using K = check::Kind;
  std::vector<check::Obligation> proven = {ob(K::Race, Status::Proven), ob(K::Coverage, Status::Proven),
                                           ob(K::Equivalence, Status::Proven)};
  CHECK(driver::kernelVerdict(Status::Proven, proven, false) == Status::Proven);
  // A failed test refutes the kernel even when no obligation it reports shows it.
  CHECK(driver::kernelVerdict(Status::Proven, proven, true) == Status::Refuted);

  auto with = [&](K k, Status s) {
    std::vector<check::Obligation> v = proven;
    v.push_back(ob(k, s));
    return v;
  };
  CHECK(driver::kernelVerdict(Status::Proven, with(K::Equivalence, Status::Bounded), false) == Status::Bounded);
  CHECK(driver::kernelVerdict(Status::Proven, with(K::Equivalence, Status::Unknown), false) == Status::Unknown);
  CHECK(driver::kernelVerdict(Status::Proven, with(K::Coverage, Status::Refuted), false) == Status::Refuted);
  // Unknown beats bounded; refuted beats both.
  std::vector<check::Obligation> mixed = with(K::Coverage, Status::Bounded);
  mixed.push_back(ob(K::Equivalence, Status::Unknown));
  CHECK(driver::kernelVerdict(Status::Proven, mixed, false) == Status::Unknown);
  mixed.push_back(ob(K::Bounds, Status::Refuted));
  CHECK(driver::kernelVerdict(Status::Proven, mixed, false) == Status::Refuted);
  // A kernel whose safety is unknown stays unknown, even if every spec obligation held.
  CHECK(driver::kernelVerdict(Status::Unknown, proven, false) == Status::Unknown);
  CHECK(driver::kernelVerdict(Status::Bounded, proven, false) == Status::Proven);
}

TEST_CASE("combine: a file's verdict over its kernels") {
  CHECK(driver::fileVerdict({Status::Proven, Status::Proven}) == Status::Proven);
  CHECK(driver::fileVerdict({Status::Proven, Status::Bounded}) == Status::Bounded);
  CHECK(driver::fileVerdict({Status::Bounded, Status::Unknown}) == Status::Unknown);
  CHECK(driver::fileVerdict({Status::Unknown, Status::Refuted, Status::Proven}) == Status::Refuted);
}
