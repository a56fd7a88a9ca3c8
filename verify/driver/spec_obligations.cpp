// Verification driver: the spec obligations (coverage, equivalence) of one kernel, from the
// concrete tests, the symbolic proof and the bounded fallback, combined as combine.h says.
#include "verify/driver/spec_obligations.h"

#include "verify/driver/combine.h"
#include "verify/equiv/bounded.h"
#include "verify/equiv/concrete.h"
#include "verify/equiv/prove.h"

#include <algorithm>
#include <chrono>

namespace ksynth::driver {

namespace {

// The bounded fallback (equiv/bounded.h) for the coverage and equivalence obligations the
// proof left unknown: they become "bounded" when every size up to the bound agrees exactly,
// "refuted" when it finds a difference that the concrete replay confirms.
void addBounded(check::KernelReport &rep, const spec::Spec &sp, const VerifyRequest &va, const spec::Binding &b,
                const ir::Kernel &k, const check::Options &opts) {
  bool open = false;
  for (const check::Obligation &o : rep.obligations)
    open |= (o.kind == check::Kind::Coverage || o.kind == check::Kind::Equivalence) && o.status == check::Status::Unknown;
  if (!open)
    return;
  equiv::BoundedOptions bo;
  bo.block = opts.block;
  bo.grid = opts.grid;
  bo.bound = va.bound;
  bo.budgetSeconds = va.boundBudgetS;
  bo.log = opts.log;
  equiv::BoundedReport br = equiv::boundedCheck(k, sp, b, bo);
  std::string assumed;
  for (const std::string &a : br.assumptions)
    assumed += (assumed.empty() ? "; assuming " : " and ") + a;
  std::string reached = "every size with each dim <= " + std::to_string(br.reached) + " (" +
                        std::to_string(br.tuples) + " size tuple(s), " + std::to_string(static_cast<int>(br.ms)) +
                        " ms; each checked for all real inputs at once, on symbolic inputs" + assumed +
                        (br.excluded ? "; " + std::to_string(br.excluded) +
                                           " size tuple(s) skipped: the kernel's own preconditions exclude them"
                                     : std::string()) +
                        ")";
  if (br.result == equiv::BoundedReport::Result::Refuted) {
    const equiv::ConcreteReport &cr = br.refutation;
    bool cov = cr.outcome == equiv::Outcome::Coverage;
    for (check::Obligation &o : rep.obligations)
      if (o.kind == (cov ? check::Kind::Coverage : check::Kind::Equivalence) && o.name == std::string(check::kindName(o.kind)) + "." + cr.tensor) {
        o.status = check::Status::Refuted;
        o.reason = cr.headline;
        o.witness = cr.witness;
        o.notes.push_back({ir::Loc{}, "found by the bounded check on symbolic inputs; replayed: the whole grid ran on "
                                      "the concrete interpreter with the inputs listed in the JSON witness"});
        return;
      }
    // Refuted elsewhere than an open obligation: report it as unknown with the finding.
  }
  for (check::Obligation &o : rep.obligations) {
    if ((o.kind != check::Kind::Coverage && o.kind != check::Kind::Equivalence) || o.status != check::Status::Unknown)
      continue;
    o.ms += br.ms;
    if (br.result == equiv::BoundedReport::Result::Agrees) {
      o.status = check::Status::Bounded;
      o.bound = br.reached;
      o.reason = "holds for " + reached + " only; " + o.reason +
                 (br.stopped.empty() ? "" : "; the bounded check stopped at " + br.stopped);
    } else if (br.result == equiv::BoundedReport::Result::Refuted) {
      o.reason += "; the bounded check found a difference in " + br.refutation.headline;
    } else {
      o.reason += "; the bounded check stopped: " + br.stopped;
    }
  }
  if (br.result == equiv::BoundedReport::Result::Agrees)
    for (const std::string &a : br.assumptions)
      rep.assumptions.push_back("bounded check: " + a);
}

} // namespace

// The spec's facts as report assumptions, and the coverage and equivalence obligations of
// every out/inout tensor, decided by the stages of combine.h in their order.
void addSpecObligations(check::KernelReport &rep, const spec::Spec &sp, const VerifyRequest &va,
                        const std::set<std::string> &checks, const spec::Binding &b, const ir::Kernel &k,
                        const check::Options &opts) {
  for (const spec::Precondition &p : b.preconditions)
    rep.assumptions.push_back("spec " + sp.name + ": " + p.text);
  for (const std::string &u : b.unused)
    rep.assumptions.push_back("spec " + sp.name + ": " + u);
  bool wantCov = checks.count("coverage"), wantEq = checks.count("equivalence");
  if (!wantCov && !wantEq)
    return;
  auto t0 = std::chrono::steady_clock::now();
  equiv::ConcreteOptions co;
  co.block = opts.block;
  co.grid = opts.grid;
  equiv::ConcreteReport cr;
  if (va.noTests)
    cr.unavailable = "skipped (--no-tests)";
  else
    cr = equiv::testAgainstSpec(k, sp, b, co);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // Over symbolic sizes: only for kernels whose safety is proven (race freedom is what lets
  // one thread's program decide what it stores) and that no test refuted.
  bool safe = rep.verdict == check::Status::Proven;
  for (const check::Obligation &o : rep.obligations)
    safe &= o.status == check::Status::Proven;
  // (The warp obligation is in a report only where the kernel uses a warp-level primitive.)
  bool missing = false;
  for (const char *need : {"race", "barrier", "bounds", "overflow", "warp", "align"})
    missing |= opts.checks.count(need) == 0;
  // The query files of the safety proofs, which the proofs below rest on.
  std::vector<std::string> safetyFiles = rep.lemmas;
  for (const check::Obligation &o : rep.obligations)
    if (o.kind == check::Kind::Race || o.kind == check::Kind::Barrier || o.kind == check::Kind::Bounds ||
        o.kind == check::Kind::Overflow || o.kind == check::Kind::Warp ||
        o.kind == check::Kind::Align)
      safetyFiles.insert(safetyFiles.end(), o.queries.begin(), o.queries.end());
  bool agrees = cr.outcome == equiv::Outcome::Agrees;
  // (Where a test disagrees nothing below rests on safety: no proof is attempted.)
  if (missing && safe && agrees) {
    // Not requested: decided here all the same (not reported), since the proofs rest on it.
    check::Options so = opts;
    so.checks = {"race", "barrier", "bounds", "overflow", "warp", "align"};
    check::KernelReport sr = check::verifyKernel(k, so);
    safe = sr.verdict == check::Status::Proven;
    safetyFiles = sr.lemmas;
    for (const check::Obligation &o : sr.obligations)
      safetyFiles.insert(safetyFiles.end(), o.queries.begin(), o.queries.end());
  }
  equiv::ProofReport pr;
  if (agrees && safe && va.boundedOnly) {
    pr.unavailable = "skipped (--bounded-only)";
  } else if (attemptSymbolicProof(agrees, safe, va.boundedOnly)) {
    pr = equiv::proveAgainstSpec(k, sp, b, opts);
    ms += pr.ms;
    for (const std::string &a : pr.assumptions)
      rep.assumptions.push_back(a);
  } else if (agrees) {
    pr.unavailable = "the safety obligations (race, barrier, bounds, overflow) must be proven first";
  }
  // A proof that did not go through: the kernel is tested once more past its first tile along
  // every dimension of the grid at once (a register tile's bug may show only there).
  // (Not after a run that did not finish: a loop that never ends costs its step limit again.)
  bool stopped = std::any_of(cr.skipped.begin(), cr.skipped.end(),
                             [](const std::string &x) { return x.find("step limit") != std::string::npos; });
  if (agrees && cr.unavailable.empty() && !cr.agreed.empty() && !stopped && !(safe && va.boundedOnly)) {
    bool open = pr.tensors.empty();
    for (const auto &[name, tp] : pr.tensors)
      open |= (wantCov && tp.coverage != check::Status::Proven) || (wantEq && tp.equivalence != check::Status::Proven);
    // Two groups, each tested on its own (each group's first run is never left out for the step
    // budget): the sizes past the first tile along every dimension of the grid, then the sizes
    // where the coverage proof found an element no guessed writer stores (a loop capped at a
    // bound past the first tests' sizes leaves such elements unwritten: N = 800007, whose run
    // the budget left out after a tile crossing's; the solver's example may also be far too
    // large, K = 16384 for a matmul, and the tile crossing refutes first there).
    // (Each tile crossing a group of its own: the grid's, then the other dims' past a tile with
    // the grid small, which the budget left out after the first.)
    std::vector<std::vector<equiv::Sizes>> groups;
    for (const equiv::Sizes &sz : equiv::tileCrossingSizes(k, sp, b, co))
      groups.push_back({sz});
    groups.emplace_back();
    for (const auto &[name, tp] : pr.tensors)
      if (wantCov && tp.coverage != check::Status::Proven && tp.coverageExampleSizes.size() == sp.dims.size())
        groups.back().push_back(tp.coverageExampleSizes);
    std::vector<equiv::Sizes> tried = cr.agreed;
    for (const std::vector<equiv::Sizes> &group : groups) {
      equiv::ConcreteOptions co2 = co;
      for (const equiv::Sizes &sz : group)
        if (std::find(tried.begin(), tried.end(), sz) == tried.end() &&
            std::find(co2.sizes.begin(), co2.sizes.end(), sz) == co2.sizes.end())
          co2.sizes.push_back(sz);
      if (!open || co2.sizes.empty() || !agrees)
        continue;
      tried.insert(tried.end(), co2.sizes.begin(), co2.sizes.end());
      auto t1 = std::chrono::steady_clock::now();
      co2.seed += 1;
      equiv::ConcreteReport cr2 = equiv::testAgainstSpec(k, sp, b, co2);
      ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
      if (cr2.unavailable.empty()) {
        if (cr2.outcome != equiv::Outcome::Agrees) {
          cr2.agreed.insert(cr2.agreed.begin(), cr.agreed.begin(), cr.agreed.end());
          cr = std::move(cr2);
          agrees = false;
        } else {
          cr.agreed.insert(cr.agreed.end(), cr2.agreed.begin(), cr2.agreed.end());
          cr.skipped.insert(cr.skipped.end(), cr2.skipped.begin(), cr2.skipped.end());
        }
      }
    }
  }
  std::string testedText;
  if (!cr.unavailable.empty()) {
    testedText = "no concrete test ran: " + cr.unavailable;
  } else {
    testedText = "agrees with the spec on random inputs at " + std::to_string(cr.agreed.size()) + " size(s)";
    for (size_t i = 0; i < cr.agreed.size() && i < 4; ++i)
      testedText += std::string(i ? "; " : " (") + equiv::sizesText(cr.agreed[i]);
    if (!cr.agreed.empty())
      testedText += cr.agreed.size() > 4 ? "; ...)" : ")";
    if (!cr.skipped.empty())
      testedText += "; skipped " + std::to_string(cr.skipped.size()) + " (first: " + cr.skipped.front() + ")";
  }
  for (const char *kind : {"coverage", "equivalence"}) {
    if (!checks.count(kind))
      continue;
    bool cov = std::string(kind) == "coverage";
    for (const spec::Tensor &t : sp.tensors) {
      if (t.mode == spec::Mode::In)
        continue;
      check::Obligation o;
      o.kind = cov ? check::Kind::Coverage : check::Kind::Equivalence;
      o.name = std::string(kind) + "." + t.name;
      o.ms = ms;
      bool failedHere = cr.tensor == t.name && ((cov && cr.outcome == equiv::Outcome::Coverage) ||
                                                (!cov && cr.outcome == equiv::Outcome::Equivalence));
      Tested tested = failedHere ? Tested::FailedHere : agrees ? Tested::Agrees : Tested::FailedOther;
      auto tp = pr.tensors.find(t.name);
      check::Status proof = tp == pr.tensors.end() ? check::Status::Unknown
                            : cov                  ? tp->second.coverage
                                                   : tp->second.equivalence;
      o.status = specObligationStatus(tested, proof);
      if (o.status == check::Status::Refuted) {
        o.reason = cr.headline;
        o.witness = cr.witness;
        auto inputs = cr.witness.find("inputs");
        std::string shown;
        if (cr.witness.contains("expected"))
          shown = "expected " + cr.witness["expected"].dump() + ", computed " + cr.witness["computed"].dump();
        if (!shown.empty())
          o.notes.push_back({ir::Loc{}, shown});
        if (inputs != cr.witness.end())
          o.notes.push_back({ir::Loc{}, "replayed: the whole grid ran on the concrete interpreter with random inputs "
                                        "(all listed in the JSON witness)"});
      } else if (o.status == check::Status::Proven) {
        if (!opts.dumpSmtDir.empty()) {
          for (const auto &[file, unsat] : pr.queries)
            if (unsat)
              o.queries.push_back(file);
          o.queries.insert(o.queries.end(), safetyFiles.begin(), safetyFiles.end());
        }
      } else {
        std::string why = !pr.unavailable.empty()  ? pr.unavailable
                          : tp == pr.tensors.end() ? std::string("not attempted")
                          : cov                    ? tp->second.coverageReason
                                                   : tp->second.equivalenceReason;
        if (why.empty() && proof == check::Status::Proven) // (tests past the proof failed elsewhere)
          why = "the proof held, but a later test failed on another obligation";
        o.reason = "not proven over symbolic sizes (" + why + "); " +
                   (agrees ? testedText : "testing stopped at another failure");
      }
      rep.obligations.push_back(o);
    }
  }
  if (attemptBounded(agrees, safe, va.bound))
    addBounded(rep, sp, va, b, k, opts);
  rep.verdict = kernelVerdict(rep.verdict, rep.obligations, !agrees);
}

} // namespace ksynth::driver
