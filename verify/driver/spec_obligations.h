// Verification driver: adds a spec's coverage and equivalence obligations to a kernel's
// safety report (verify/driver/combine.h states the order of the stages and the rule).
#pragma once

#include "verify/check/checker.h"
#include "verify/driver/driver.h"
#include "verify/spec/bind.h"
#include "verify/spec/spec.h"

#include <set>
#include <string>

namespace ksynth::driver {

// The spec's preconditions become report assumptions; for every out/inout tensor the
// requested coverage and equivalence obligations are decided and appended, and the
// kernel's verdict updated. `opts` are the safety checks' options (launch, assumptions,
// timeout, query directory).
void addSpecObligations(check::KernelReport &rep, const spec::Spec &sp, const VerifyRequest &va,
                        const std::set<std::string> &checks, const spec::Binding &b, const ir::Kernel &k,
                        const check::Options &opts);

} // namespace ksynth::driver
