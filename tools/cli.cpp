// `ksynth` command line: option parsing, report rendering (clang-style text, JSON, SARIF)
// and exit codes. All verification work is done by the libraries.
#include "tools/cli.h"

#include "verify/check/checker.h"
#include "gpu/device.h"
#include "gpu/run.h"
#include "tools/launch.h"
#include "tools/proof.h"
#include "verify/equiv/bounded.h"
#include "verify/equiv/concrete.h"
#include "verify/equiv/prove.h"
#include "verify/frontend/frontend.h"
#include "verify/ir/cexpr.h"
#include "verify/smt/solver.h"
#include "verify/spec/bind.h"
#include "verify/spec/check.h"
#include "verify/spec/parser.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#ifndef KSYNTH_VERSION
#define KSYNTH_VERSION "0.0.0"
#endif

namespace ksynth::cli {

namespace {

constexpr int kExitProven = 0, kExitRefuted = 1, kExitUnknown = 2, kExitUsage = 64, kExitMalformed = 65,
              kExitInternal = 70;

const char *kModel =
    "threads interleave arbitrarily between barriers (no lock-step warps); a race is two accesses of "
    "different threads to one address, at least one a write, not both atomic, with no barrier between them "
    "(shared memory: same block; global memory: any two threads of the grid); problem sizes and unspecified "
    "launch dimensions are symbolic; signed integer overflow, division by zero and out-of-range shifts are "
    "errors; unsigned arithmetic wraps";

struct VerifyArgs {
  std::string file;
  std::string kernel;
  std::vector<std::string> block, grid; // textual dims
  bool blockSet = false, gridSet = false;
  frontend::Options fe;
  std::set<std::string> checks = {"race", "barrier", "bounds", "overflow", "assert"};
  bool checksSet = false;
  std::string spec; // --spec FILE
  std::vector<std::string> assumes;
  bool json = false;
  bool dumpKir = false;
  std::string sarif;
  std::string dumpSmt;
  double timeoutS = 10;
  bool noTests = false; // --no-tests: coverage/equivalence by proof alone (checks the prover)
  int bound = 6;         // --bound N: the bounded fallback checks every dim <= N (0: off)
  bool boundedOnly = false; // --bounded-only: no proof over symbolic sizes, the fallback alone
  double boundBudgetS = 10;
  std::string proofDir;  // --proof-dir DIR: write a proof bundle (tools/proof.h)
};

int usage(const std::string &msg, std::ostream &errs = std::cerr) {
  errs << "ksynth: error: " << msg << "\n"
            << "usage: ksynth verify FILE.cu [--spec SPEC.smt] [--kernel NAME] [--block X[,Y[,Z]]] [--grid X[,Y[,Z]]]\n"
            << "                     [-D NAME=VALUE] [-I DIR] [--assume EXPR] [--checks LIST]\n"
            << "                     [--json] [--sarif FILE] [--dump-smt DIR] [--dump-kir] [--timeout S]\n"
            << "       ksynth spec SPEC.smt [--print | --explain] [--json]\n"
            << "run 'ksynth help' for more\n";
  return kExitUsage;
}

void printHelp() {
  std::cout << "ksynth " << KSYNTH_VERSION << " — formally verified GPU kernels\n\n"
            << "ksynth verify FILE.cu [options]   prove race freedom, barrier uniformity, bounds, overflow\n"
            << "  --spec SPEC.smt      bind the kernel to a spec: its tensors, dims and scalars become the\n"
            << "                       kernel's parameters' sizes and preconditions; adds coverage (every\n"
            << "                       output element stored once) and equivalence (the spec's value):\n"
            << "                       tested at small sizes (a failure refutes), then proven over\n"
            << "                       symbolic sizes where ksynth can\n"
            << "  --no-tests           skip those tests (the proof alone decides; for checking ksynth)\n"
            << "  --kernel NAME        check only this __global__ kernel (default: all in the file)\n"
            << "  --block X[,Y[,Z]]    block shape (also --blockDim=X or --blockDim=[X,Y]); omitted: symbolic\n"
            << "  --grid X[,Y[,Z]]     grid shape (also --gridDim=...); omitted: symbolic\n"
            << "  -D NAME[=VALUE]      define a macro      -I DIR   add an include directory\n"
            << "  --assume EXPR        precondition over scalar parameters and __len(p), e.g. 'n <= 4096'\n"
            << "  --checks LIST        race,barrier,bounds,overflow,assert[,coverage,equivalence with --spec]\n"
            << "                       (default: all)\n"
            << "  --json               one JSON object on stdout      --sarif FILE   SARIF 2.1.0 report\n"
            << "  --dump-smt DIR       write every query as an SMT-LIB2 file\n"
            << "  --proof-dir DIR      write a proof bundle (proof.json, kernel, spec, queries) that\n"
            << "                       'ksynth check-proof DIR' re-checks with the z3 and cvc5 executables\n"
            << "  --bound N            bounded fallback for what the proof leaves open: every dim <= N (6;\n"
            << "                       0: off), within --bound-budget S (10); --bounded-only: no proof\n"
            << "  --dump-kir           print the kernel IR           --timeout S   per-query limit (10)\n\n"
            << "A kernel's own '// ksynth:launch grid=(...) block=(...)' line is used when no flag overrides it.\n\n"
            << "ksynth spec SPEC.smt  parse a spec and check it is well formed (assumptions satisfiable, ranges\n"
            << "                     of max-over/min-over non-empty, reads in bounds); --print the canonical\n"
            << "                     text, --explain a plain-language description, --json a summary\n"
            << "ksynth check-proof DIR [--solver z3|cvc5|all] [--kernel F] [--spec F] [--timeout S]\n"
            << "                     re-check a proof bundle: hashes, and every query of every proven\n"
            << "                     obligation unsat by the solver executables (exit 0 ok, 1 failed)\n"
            << "ksynth run FILE.cu --spec SPEC.smt [--size NAME=VALUE ...] [--backend gpu|cpu] [--repeat R]\n"
            << "                     verify, compile with nvcc, run on fresh seeded inputs with outputs poisoned\n"
            << "                     (NaN), compare every repeat with the spec (double precision), time on the\n"
            << "                     GPU (median of R; CUDA events, L2 flushed); without a GPU the concrete\n"
            << "                     interpreter runs it, not timed. Refuses an unproven kernel unless\n"
            << "                     --unverified. Also --warmup W --seed S --json --arch sm_XX --nvcc PATH|none\n"
            << "                     --timeout S (watchdog, 120) --rtol X --samples N (compared elements per\n"
            << "                     output and run when not all: 4096) --keep DIR --kernel NAME -D -I\n"
            << "                     exit 0 outputs agree, 1 wrong/failed/refuted, 2 not run, 64, 65, 70\n"
            << "Exit: 0 proven, 1 refuted, 2 unknown or bounded, 64 usage, 65 malformed input, 70 internal error.\n"
            << "Model: " << kModel << ".\n";
}

const std::set<std::string> kSafetyChecks = {"race", "barrier", "bounds", "overflow", "assert"};
const std::set<std::string> kSpecChecks = {"coverage", "equivalence"};

// `all` stands for every check; coverage and equivalence are kept only when a spec is given
// (resolveChecks).
bool parseChecks(const std::string &s, std::set<std::string> &out, std::string &err) {
  out.clear();
  for (const std::string &c : splitDims(s)) {
    if (c == "all") {
      out.insert(kSafetyChecks.begin(), kSafetyChecks.end());
      out.insert("all");
      continue;
    }
    if (!kSafetyChecks.count(c) && !kSpecChecks.count(c)) {
      err = "unknown check '" + c + "' (known: race, barrier, bounds, overflow, assert, coverage, equivalence)";
      return false;
    }
    out.insert(c);
  }
  return !out.empty();
}

bool resolveChecks(VerifyArgs &va, std::string &err) {
  bool all = !va.checksSet || va.checks.erase("all");
  if (va.spec.empty()) {
    for (const std::string &c : kSpecChecks)
      if (va.checks.count(c)) {
        err = "check '" + c + "' needs --spec SPEC.smt";
        return false;
      }
  } else if (all) {
    va.checks.insert(kSpecChecks.begin(), kSpecChecks.end());
  }
  return true;
}

std::string locText(const std::string &file, ir::Loc l) {
  if (!l.valid())
    return file + ":";
  return file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col) + ":";
}

struct KernelRun {
  check::KernelReport report;
  std::vector<frontend::Diagnostic> notes;
  double ms = 0;
};

nlohmann::json obligationJson(const check::Obligation &o) {
  nlohmann::json j = {{"kind", o.kind},
                      {"name", o.name},
                      {"status", check::statusName(o.status)},
                      {"time_ms", o.ms}};
  if (!o.reason.empty())
    j["reason"] = o.reason;
  if (o.status == check::Status::Bounded)
    j["bound"] = o.bound;
  if (!o.queries.empty())
    j["queries"] = o.queries;
  if (o.loc.valid())
    j["line"] = o.loc.line, j["col"] = o.loc.col;
  if (!o.notes.empty()) {
    nlohmann::json notes = nlohmann::json::array();
    for (const check::Note &n : o.notes)
      notes.push_back(n.text);
    j["notes"] = notes;
  }
  if (!o.witness.is_null())
    j["witness"] = o.witness;
  return j;
}

void writeSarif(const std::string &path, const std::string &file, const std::vector<KernelRun> &runs) {
  nlohmann::json rules = nlohmann::json::array();
  for (auto [id, text] : std::vector<std::pair<std::string, std::string>>{
           {"race", "Data race"}, {"barrier", "Barrier divergence"}, {"bounds", "Out-of-bounds access"},
           {"overflow", "Integer overflow or division by zero"}, {"assert", "Assertion failure"},
           {"unsupported", "Construct not supported by the verifier"}})
    rules.push_back({{"id", id}, {"shortDescription", {{"text", text}}}});
  nlohmann::json results = nlohmann::json::array();
  auto location = [&](ir::Loc l) {
    nlohmann::json phys = {{"artifactLocation", {{"uri", file}}}};
    if (l.valid())
      phys["region"] = {{"startLine", l.line}, {"startColumn", l.col}};
    return nlohmann::json{{"physicalLocation", phys}};
  };
  for (const KernelRun &r : runs)
    for (const check::Obligation &o : r.report.obligations) {
      if (o.status == check::Status::Proven)
        continue;
      nlohmann::json res = {{"ruleId", o.kind == "assumptions" ? "unsupported" : o.kind},
                            {"level", o.status == check::Status::Refuted ? "error" : "warning"},
                            {"message", {{"text", (o.status == check::Status::Refuted ? "" : o.kind + " not proven: ") +
                                                      o.reason + " (kernel " + r.report.name + ")"}}},
                            {"locations", {location(o.loc)}}};
      nlohmann::json related = nlohmann::json::array();
      int id = 0;
      for (const check::Note &n : o.notes) {
        nlohmann::json rl = location(n.loc);
        rl["id"] = id++;
        rl["message"] = {{"text", n.text}};
        related.push_back(rl);
      }
      if (!related.empty())
        res["relatedLocations"] = related;
      results.push_back(res);
    }
  nlohmann::json doc = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       {{{"tool", {{"driver", {{"name", "ksynth"}, {"version", KSYNTH_VERSION}, {"rules", rules}}}}},
         {"results", results}}}}};
  std::ofstream(path) << doc.dump(2) << "\n";
}

// Parses and checks a spec file; prints its diagnostics (clang style) and returns nullopt
// when it is malformed.
std::optional<spec::Spec> loadSpec(const std::string &path, bool json, std::ostream &outs, std::ostream &errs) {
  spec::ParseResult r = spec::parseFile(path);
  std::vector<spec::Diagnostic> errors = r.errors;
  if (r.spec) {
    spec::CheckResult c = spec::checkSpec(*r.spec);
    errors.insert(errors.end(), c.errors.begin(), c.errors.end());
  }
  if (errors.empty())
    return r.spec;
  nlohmann::json list = nlohmann::json::array();
  for (const spec::Diagnostic &d : errors) {
    errs << spec::format(path, d) << "\n";
    list.push_back({{"line", d.loc.line}, {"col", d.loc.col}, {"message", d.message}});
  }
  errs << "ksynth: error: spec '" << path << "' is malformed\n";
  if (json)
    outs << nlohmann::json{{"tool", "ksynth"}, {"spec", path}, {"verdict", "malformed"}, {"errors", list}}.dump()
              << "\n";
  else
    outs << "VERDICT: UNKNOWN\n";
  return std::nullopt;
}

nlohmann::json bindErrorsJson(const spec::Binding &b, const VerifyArgs &va) {
  nlohmann::json list = nlohmann::json::array();
  for (const spec::BindError &e : b.errors)
    list.push_back({{"file", e.inSpec ? va.spec : va.file}, {"line", e.line}, {"col", e.col}, {"message", e.message}});
  return list;
}

// The bounded fallback (equiv/bounded.h) for the coverage and equivalence obligations the
// proof left unknown: they become "bounded" when every size up to the bound agrees exactly,
// "refuted" when it finds a difference that the concrete replay confirms.
void addBounded(check::KernelReport &rep, const spec::Spec &sp, const VerifyArgs &va, const spec::Binding &b,
                const ir::Kernel &k, const check::Options &opts) {
  bool open = false;
  for (const check::Obligation &o : rep.obligations)
    open |= (o.kind == "coverage" || o.kind == "equivalence") && o.status == check::Status::Unknown;
  if (!open)
    return;
  equiv::BoundedOptions bo;
  bo.block = opts.block;
  bo.grid = opts.grid;
  bo.bound = va.bound;
  bo.budgetSeconds = va.boundBudgetS;
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
      if (o.kind == (cov ? "coverage" : "equivalence") && o.name == o.kind + "." + cr.tensor) {
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
    if ((o.kind != "coverage" && o.kind != "equivalence") || o.status != check::Status::Unknown)
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

// The spec's facts as report assumptions, and the coverage and equivalence obligations of
// every out/inout tensor. This version decides them only by testing at concrete sizes
// (equiv/concrete.h): a failing test refutes (it is a real execution); agreement leaves the
// obligation unknown, with the sizes tested in the reason. Never proven yet.
void addSpecObligations(check::KernelReport &rep, const spec::Spec &sp, const VerifyArgs &va,
                        const spec::Binding &b, const ir::Kernel &k, const check::Options &opts) {
  for (const spec::Precondition &p : b.preconditions)
    rep.assumptions.push_back("spec " + sp.name + ": " + p.text);
  for (const std::string &u : b.unused)
    rep.assumptions.push_back("spec " + sp.name + ": " + u);
  bool wantCov = va.checks.count("coverage"), wantEq = va.checks.count("equivalence");
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
  std::string tested;
  if (!cr.unavailable.empty()) {
    tested = "no concrete test ran: " + cr.unavailable;
  } else {
    tested = "agrees with the spec on random inputs at " + std::to_string(cr.agreed.size()) + " size(s)";
    for (size_t i = 0; i < cr.agreed.size() && i < 4; ++i)
      tested += std::string(i ? "; " : " (") + equiv::sizesText(cr.agreed[i]);
    if (!cr.agreed.empty())
      tested += cr.agreed.size() > 4 ? "; ...)" : ")";
    if (!cr.skipped.empty())
      tested += "; skipped " + std::to_string(cr.skipped.size()) + " (first: " + cr.skipped.front() + ")";
  }
  // Over symbolic sizes: only for kernels whose safety is proven (race freedom is what lets
  // one thread's program decide what it stores) and that no test refuted.
  bool safe = rep.verdict == check::Status::Proven;
  for (const check::Obligation &o : rep.obligations)
    safe &= o.status == check::Status::Proven;
  std::set<std::string> safetyKinds;
  for (const check::Obligation &o : rep.obligations)
    safetyKinds.insert(o.kind);
  bool missing = false;
  for (const char *need : {"race", "barrier", "bounds", "overflow"})
    missing |= safetyKinds.count(need) == 0;
  // The query files of the safety proofs, which the proofs below rest on.
  std::vector<std::string> safetyFiles = rep.lemmas;
  for (const check::Obligation &o : rep.obligations)
    if (o.kind == "race" || o.kind == "barrier" || o.kind == "bounds" || o.kind == "overflow")
      safetyFiles.insert(safetyFiles.end(), o.queries.begin(), o.queries.end());
  if (missing && safe) {
    // Not requested: decided here all the same (not reported), since the proofs rest on it.
    check::Options so = opts;
    so.checks = {"race", "barrier", "bounds", "overflow"};
    check::KernelReport sr = check::verifyKernel(k, so);
    safe = sr.verdict == check::Status::Proven;
    safetyFiles = sr.lemmas;
    for (const check::Obligation &o : sr.obligations)
      safetyFiles.insert(safetyFiles.end(), o.queries.begin(), o.queries.end());
  }
  equiv::ProofReport pr;
  if (cr.outcome == equiv::Outcome::Agrees && safe && va.boundedOnly) {
    pr.unavailable = "skipped (--bounded-only)";
  } else if (cr.outcome == equiv::Outcome::Agrees && safe) {
    pr = equiv::proveAgainstSpec(k, sp, b, opts);
    ms += pr.ms;
    for (const std::string &a : pr.assumptions)
      rep.assumptions.push_back(a);
  } else if (cr.outcome == equiv::Outcome::Agrees) {
    pr.unavailable = "the safety obligations (race, barrier, bounds, overflow) must be proven first";
  }
  bool added = false;
  for (const char *kind : {"coverage", "equivalence"}) {
    if (!va.checks.count(kind))
      continue;
    bool cov = std::string(kind) == "coverage";
    for (const spec::Tensor &t : sp.tensors) {
      if (t.mode == spec::Mode::In)
        continue;
      check::Obligation o;
      o.kind = kind;
      o.name = std::string(kind) + "." + t.name;
      o.ms = ms;
      bool failedHere = cr.tensor == t.name && ((cov && cr.outcome == equiv::Outcome::Coverage) ||
                                                (!cov && cr.outcome == equiv::Outcome::Equivalence));
      if (failedHere) {
        o.status = check::Status::Refuted;
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
      } else {
        auto tp = pr.tensors.find(t.name);
        check::Status st = tp == pr.tensors.end() ? check::Status::Unknown
                           : cov                  ? tp->second.coverage
                                                  : tp->second.equivalence;
        if (cr.outcome == equiv::Outcome::Agrees && st == check::Status::Proven) {
          o.status = check::Status::Proven;
          if (!opts.dumpSmtDir.empty()) {
            for (const auto &[file, unsat] : pr.queries)
              if (unsat)
                o.queries.push_back(file);
            o.queries.insert(o.queries.end(), safetyFiles.begin(), safetyFiles.end());
          }
        } else {
          std::string why = !pr.unavailable.empty() ? pr.unavailable
                            : tp == pr.tensors.end() ? std::string("not attempted")
                            : cov                    ? tp->second.coverageReason
                                                     : tp->second.equivalenceReason;
          o.status = check::Status::Unknown;
          o.reason = "not proven over symbolic sizes (" + why + "); " +
                     (cr.outcome == equiv::Outcome::Agrees ? tested : "testing stopped at another failure");
        }
      }
      rep.obligations.push_back(o);
      added = true;
    }
  }
  if (cr.outcome == equiv::Outcome::Agrees && safe && va.bound > 0)
    addBounded(rep, sp, va, b, k, opts);
  bool anyRefuted = cr.outcome != equiv::Outcome::Agrees, anyUnknown = false, anyBounded = false;
  for (const check::Obligation &o : rep.obligations) {
    anyRefuted |= o.status == check::Status::Refuted;
    anyUnknown |= o.status == check::Status::Unknown;
    anyBounded |= o.status == check::Status::Bounded;
  }
  if (anyRefuted)
    rep.verdict = check::Status::Refuted;
  else if (rep.verdict == check::Status::Proven || rep.verdict == check::Status::Bounded)
    rep.verdict = anyUnknown ? check::Status::Unknown : anyBounded ? check::Status::Bounded : check::Status::Proven;
  (void)added;
}

int verifyMain(const std::vector<std::string> &args, std::ostream &outs, std::ostream &errs) {
  VerifyArgs va;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const std::string &flag) -> std::optional<std::string> {
      if (a == flag) {
        if (i + 1 >= args.size())
          return std::nullopt;
        return args[++i];
      }
      if (a.rfind(flag + "=", 0) == 0)
        return a.substr(flag.size() + 1);
      return std::nullopt;
    };
    auto is = [&](const std::string &flag) { return a == flag || a.rfind(flag + "=", 0) == 0; };
    if (is("--block") || is("--blockDim")) {
      auto v = value(is("--block") ? "--block" : "--blockDim");
      if (!v)
        return usage(a + " needs a value", errs);
      va.block = splitDims(*v);
      va.blockSet = true;
    } else if (is("--grid") || is("--gridDim")) {
      auto v = value(is("--grid") ? "--grid" : "--gridDim");
      if (!v)
        return usage(a + " needs a value", errs);
      va.grid = splitDims(*v);
      va.gridSet = true;
    } else if (a == "-D" || (a.rfind("-D", 0) == 0 && a.size() > 2)) {
      std::string d = a.size() > 2 ? a.substr(2) : (i + 1 < args.size() ? args[++i] : "");
      if (d.empty())
        return usage("-D needs NAME[=VALUE]", errs);
      va.fe.defines.push_back(d);
    } else if (a == "-I" || (a.rfind("-I", 0) == 0 && a.size() > 2)) {
      std::string d = a.size() > 2 ? a.substr(2) : (i + 1 < args.size() ? args[++i] : "");
      if (d.empty())
        return usage("-I needs a directory", errs);
      va.fe.includeDirs.push_back(d);
    } else if (is("--kernel")) {
      auto v = value("--kernel");
      if (!v)
        return usage("--kernel needs a name", errs);
      va.kernel = *v;
    } else if (is("--checks")) {
      auto v = value("--checks");
      std::string err;
      if (!v || !parseChecks(*v, va.checks, err))
        return usage(err.empty() ? "--checks needs a list" : err, errs);
      va.checksSet = true;
    } else if (is("--assume")) {
      auto v = value("--assume");
      if (!v)
        return usage("--assume needs an expression", errs);
      va.assumes.push_back(*v);
    } else if (a == "--json") {
      va.json = true;
    } else if (a == "--no-tests") {
      va.noTests = true;
    } else if (a == "--bounded-only") {
      va.boundedOnly = true;
    } else if (is("--bound")) {
      auto v = value("--bound");
      try {
        va.bound = v ? std::stoi(*v) : -1;
      } catch (...) {
        va.bound = -1;
      }
      if (va.bound < 0 || va.bound > 4096)
        return usage("--bound needs a size between 0 (off) and 4096", errs);
    } else if (is("--bound-budget")) {
      auto v = value("--bound-budget");
      try {
        va.boundBudgetS = v ? std::stod(*v) : -1;
      } catch (...) {
        va.boundBudgetS = -1;
      }
      if (va.boundBudgetS <= 0)
        return usage("--bound-budget needs a positive number of seconds", errs);
    } else if (a == "--dump-kir") {
      va.dumpKir = true;
    } else if (is("--sarif")) {
      auto v = value("--sarif");
      if (!v)
        return usage("--sarif needs a file", errs);
      va.sarif = *v;
    } else if (is("--proof-dir")) {
      auto v = value("--proof-dir");
      if (!v || v->empty())
        return usage("--proof-dir needs a directory", errs);
      va.proofDir = *v;
    } else if (is("--dump-smt")) {
      auto v = value("--dump-smt");
      if (!v)
        return usage("--dump-smt needs a directory", errs);
      va.dumpSmt = *v;
    } else if (is("--timeout")) {
      auto v = value("--timeout");
      try {
        va.timeoutS = v ? std::stod(*v) : -1;
      } catch (...) {
        va.timeoutS = -1;
      }
      if (va.timeoutS <= 0)
        return usage("--timeout needs a positive number of seconds", errs);
    } else if (is("--spec")) {
      auto v = value("--spec");
      if (!v)
        return usage("--spec needs a spec file", errs);
      va.spec = *v;
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option '" + a + "'", errs);
    } else if (va.file.empty()) {
      va.file = a;
    } else {
      return usage("more than one input file ('" + va.file + "', '" + a + "')", errs);
    }
  }
  if (va.file.empty())
    return usage("no input file", errs);
  {
    std::string err;
    if (!resolveChecks(va, err))
      return usage(err, errs);
  }
  if (va.block.size() > 3 || va.grid.size() > 3)
    return usage("--block/--grid take at most three dimensions", errs);
  {
    std::ifstream probe(va.file);
    if (!probe) {
      errs << "ksynth: error: cannot read '" << va.file << "'\n";
      return kExitMalformed;
    }
  }

  if (!va.proofDir.empty()) { // a bundle holds this run's queries only
    std::error_code ec;
    std::filesystem::remove_all(std::filesystem::path(va.proofDir) / "queries", ec);
  }
  auto t0 = std::chrono::steady_clock::now();
  std::optional<spec::Spec> sp;
  if (!va.spec.empty()) {
    sp = loadSpec(va.spec, va.json, outs, errs);
    if (!sp)
      return kExitMalformed;
  }
  frontend::ParseResult pr = frontend::parseFile(va.file, va.fe);
  if (!pr.parsed) {
    errs << pr.clangOutput;
    errs << "ksynth: error: '" << va.file << "' does not parse\n";
    if (va.json)
      outs << nlohmann::json{{"tool", "ksynth"}, {"file", va.file}, {"verdict", "malformed"},
                                  {"errors", pr.clangOutput}}
                       .dump()
                << "\n";
    else
      outs << "VERDICT: UNKNOWN\n";
    return kExitMalformed;
  }
  std::vector<size_t> selected;
  for (size_t i = 0; i < pr.kernels.size(); ++i)
    if (va.kernel.empty() || pr.kernels[i].name == va.kernel)
      selected.push_back(i);
  if (sp && selected.size() > 1) {
    // One kernel implements the spec: the one named like it, or the one --kernel names.
    std::vector<size_t> named;
    for (size_t i : selected)
      if (pr.kernels[i].name == sp->name)
        named.push_back(i);
    if (named.size() != 1)
      return usage("'" + va.file + "' has " + std::to_string(selected.size()) +
                   " kernels; name the one that implements spec '" + sp->name + "' with --kernel",
                   errs);
    selected = named;
  }
  if (selected.empty()) {
    errs << "ksynth: error: " << (va.kernel.empty() ? "no __global__ kernel with a body in '" + va.file + "'"
                                                         : "no __global__ kernel named '" + va.kernel + "'")
              << "\n";
    return kExitMalformed;
  }

  LaunchLine ll = findLaunchLine(va.file);
  std::vector<std::string> blockText = va.blockSet ? va.block : ll.block;
  std::vector<std::string> gridText = va.gridSet ? va.grid : ll.grid;

  std::vector<KernelRun> runs;
  for (size_t idx : selected) {
    const ir::Kernel &k = pr.kernels[idx];
    if (va.dumpKir)
      errs << ir::print(k);
    check::Options opts;
    opts.checks = va.checks;
    opts.timeoutMs = static_cast<unsigned>(va.timeoutS * 1000);
    opts.dumpSmtDir = va.proofDir.empty() ? va.dumpSmt : (std::filesystem::path(va.proofDir) / "queries").string();
    // Kernels of one name (overloads) write their queries to their own directories.
    std::string querySub;
    if (!opts.dumpSmtDir.empty() &&
        std::count_if(selected.begin(), selected.end(), [&](size_t j) { return pr.kernels[j].name == k.name; }) > 1) {
      querySub = "k" + std::to_string(idx);
      opts.dumpSmtDir = (std::filesystem::path(opts.dumpSmtDir) / querySub).string();
    }
    for (int d = 0; d < 3; ++d) {
      for (auto [texts, dest, what] : {std::tuple{&blockText, &opts.block, "block"}, std::tuple{&gridText, &opts.grid, "grid"}}) {
        if (static_cast<size_t>(d) < texts->size() && !(*texts)[d].empty()) {
          std::string err;
          ir::ExprPtr e = ir::parseCExpr(k, (*texts)[d], err);
          if (!e) {
            errs << "ksynth: error: " << what << " dimension '" << (*texts)[d] << "': " << err << "\n";
            return kExitUsage;
          }
          (*dest)[d] = e;
        } else if (static_cast<size_t>(d) >= texts->size() && !texts->empty()) {
          (*dest)[d] = ir::mkConstInt(1, ir::Type::i64()); // --block 256 means (256, 1, 1)
        }
      }
    }
    for (const std::string &a : va.assumes) {
      std::string err;
      ir::ExprPtr e = ir::parseCExpr(k, a, err);
      if (!e) {
        errs << "ksynth: error: --assume '" << a << "': " << err << "\n";
        return kExitUsage;
      }
      opts.assumes.push_back(e);
    }
    spec::Binding binding;
    if (sp) {
      binding = spec::bind(*sp, k);
      if (!binding.ok()) {
        for (const spec::BindError &e : binding.errors)
          errs << (e.inSpec ? va.spec : va.file) << ":" << e.line << ":" << e.col << ": error: " << e.message
                    << "\n";
        errs << "ksynth: error: kernel '" << k.name << "' does not match spec '" << sp->name << "'\n";
        if (va.json)
          outs << nlohmann::json{{"tool", "ksynth"}, {"file", va.file}, {"spec", va.spec}, {"verdict", "malformed"},
                                      {"errors", bindErrorsJson(binding, va)}}
                           .dump()
                    << "\n";
        else
          outs << "VERDICT: UNKNOWN\n";
        return kExitMalformed;
      }
      for (const spec::Precondition &p : binding.preconditions)
        opts.assumes.push_back(p.expr);
      std::set<std::string> safety;
      for (const std::string &c : va.checks)
        if (kSafetyChecks.count(c))
          safety.insert(c);
      opts.checks = safety;
    }
    auto k0 = std::chrono::steady_clock::now();
    KernelRun run;
    run.report = check::verifyKernel(k, opts);
    // A proven obligation with a query rests on the kernel's lemmas too (loop summaries).
    for (check::Obligation &o : run.report.obligations)
      if (o.status == check::Status::Proven && !o.queries.empty())
        o.queries.insert(o.queries.end(), run.report.lemmas.begin(), run.report.lemmas.end());
    for (const std::string &a : va.assumes)
      run.report.assumptions.push_back("--assume " + a);
    if (sp)
      addSpecObligations(run.report, *sp, va, binding, k, opts);
    if (!querySub.empty())
      for (check::Obligation &o : run.report.obligations)
        for (std::string &q : o.queries)
          q = querySub + "/" + q;
    run.notes = pr.notes[idx];
    run.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - k0).count();
    runs.push_back(std::move(run));
  }
  double totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  bool anyRefuted = false, anyUnknown = false, anyBounded = false;
  for (const KernelRun &r : runs) {
    anyRefuted |= r.report.verdict == check::Status::Refuted;
    anyUnknown |= r.report.verdict == check::Status::Unknown;
    anyBounded |= r.report.verdict == check::Status::Bounded;
  }
  const char *verdict = anyRefuted ? "refuted" : anyUnknown ? "unknown" : anyBounded ? "bounded" : "proven";
  int code = anyRefuted ? kExitRefuted : anyUnknown || anyBounded ? kExitUnknown : kExitProven;

  if (!va.sarif.empty())
    writeSarif(va.sarif, va.file, runs);

  {
    nlohmann::json kernels = nlohmann::json::array();
    std::vector<std::string> assumptions;
    for (const KernelRun &r : runs) {
      nlohmann::json obl = nlohmann::json::array();
      for (const check::Obligation &o : r.report.obligations)
        obl.push_back(obligationJson(o));
      nlohmann::json diags = nlohmann::json::array();
      for (const frontend::Diagnostic &d : r.notes)
        diags.push_back({{"severity", d.severity}, {"line", d.line}, {"col", d.col}, {"message", d.message}});
      kernels.push_back({{"name", r.report.name},
                         {"verdict", check::statusName(r.report.verdict)},
                         {"launch", r.report.launch},
                         {"obligations", obl},
                         {"abstractions", r.report.abstractions},
                         {"diagnostics", diags},
                         {"assumptions", r.report.assumptions},
                         {"time_ms", r.ms}});
      for (const std::string &a : r.report.assumptions)
        if (std::find(assumptions.begin(), assumptions.end(), a) == assumptions.end())
          assumptions.push_back(a);
    }
    nlohmann::json out = {{"tool", "ksynth"},   {"version", KSYNTH_VERSION}, {"solver", smt::Solver::version()},
                          {"file", va.file},    {"verdict", verdict},        {"checks", va.checks},
                          {"kernels", kernels}, {"assumptions", assumptions}, {"model", kModel},
                          {"time_ms", totalMs}};
    if (sp)
      out["spec"] = {{"file", va.spec}, {"name", sp->name}};
    if (!va.proofDir.empty()) {
      std::string why;
      if (!writeProofBundle(va.proofDir, out, va.file, va.spec, args, why)) {
        errs << "ksynth: error: proof bundle: " << why << "\n";
        return kExitInternal;
      }
    }
    if (va.json) {
      outs << out.dump(2) << "\n";
      return code;
    }
  }

  for (const KernelRun &r : runs) {
    for (const frontend::Diagnostic &d : r.notes)
      outs << d.file << ":" << d.line << ":" << d.col << ": " << d.severity << ": " << d.message << "\n";
    for (const check::Obligation &o : r.report.obligations) {
      if (o.status == check::Status::Refuted) {
        outs << locText(va.file, o.loc) << " error: " << o.reason << " [" << o.kind << "]\n";
        for (const check::Note &n : o.notes)
          outs << locText(va.file, n.loc) << " note: " << n.text << "\n";
      } else if (o.status == check::Status::Unknown) {
        outs << locText(va.file, o.loc) << " warning: " << o.name << " not proven: " << o.reason << " ["
                  << o.kind << "]\n";
      } else if (o.status == check::Status::Bounded) {
        outs << locText(va.file, o.loc) << " warning: " << o.name << " bounded, not proven: " << o.reason << " ["
                  << o.kind << "]\n";
      }
    }
    std::map<std::string, std::pair<int, int>> byKind; // proven, total
    for (const check::Obligation &o : r.report.obligations) {
      auto &p = byKind[o.kind];
      p.second++;
      if (o.status == check::Status::Proven)
        p.first++;
    }
    outs << "kernel " << r.report.name << " [" << r.report.launch << "]: " << check::statusName(r.report.verdict);
    std::string sep = " (";
    for (auto &[kind, p] : byKind) {
      outs << sep << kind << " " << p.first << "/" << p.second << " proven";
      sep = ", ";
    }
    outs << (byKind.empty() ? "" : ")") << "\n";
    for (const std::string &a : r.report.abstractions)
      outs << "  abstraction: " << a << "\n";
    // What the proofs assumed beyond the spec's own preconditions (those are the user's).
    for (const std::string &a : r.report.assumptions)
      if (a.rfind("spec ", 0) != 0 && a.rfind("--assume ", 0) != 0)
        outs << "  assuming: " << a << "\n";
  }
  std::string up = verdict;
  for (char &c : up)
    c = static_cast<char>(toupper(c));
  outs << "VERDICT: " << up << "\n";
  return code;
}

// `ksynth spec SPEC.smt [--print | --explain] [--json]`
int specMain(const std::vector<std::string> &args) {
  std::string file;
  bool print = false, explain = false, json = false;
  for (const std::string &a : args) {
    if (a == "--print")
      print = true;
    else if (a == "--explain")
      explain = true;
    else if (a == "--json")
      json = true;
    else if (!a.empty() && a[0] == '-')
      return usage("unknown option '" + a + "' for 'ksynth spec'");
    else if (file.empty())
      file = a;
    else
      return usage("more than one spec file ('" + file + "', '" + a + "')");
  }
  if (file.empty())
    return usage("no spec file");
  spec::ParseResult r = spec::parseFile(file);
  std::vector<spec::Diagnostic> errors = r.errors;
  spec::CheckResult c;
  if (r.spec) {
    c = spec::checkSpec(*r.spec);
    errors.insert(errors.end(), c.errors.begin(), c.errors.end());
  }
  if (!errors.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const spec::Diagnostic &d : errors) {
      std::cerr << spec::format(file, d) << "\n";
      list.push_back({{"line", d.loc.line}, {"col", d.loc.col}, {"message", d.message}});
    }
    if (json)
      std::cout << nlohmann::json{{"tool", "ksynth"}, {"spec", file}, {"verdict", "malformed"}, {"errors", list}}.dump(2)
                << "\n";
    else
      std::cerr << "ksynth: error: spec '" << file << "' is malformed\n";
    return kExitMalformed;
  }
  const spec::Spec &sp = *r.spec;
  std::string example;
  for (const spec::Dim &d : sp.dims)
    if (c.example.count(d.name))
      example += (example.empty() ? "" : ", ") + d.name + " = " + std::to_string(c.example.at(d.name));
  if (json) {
    nlohmann::json tensors = nlohmann::json::array();
    for (const spec::Tensor &t : sp.tensors) {
      nlohmann::json ext = nlohmann::json::array();
      for (const spec::TermPtr &e : t.extents)
        ext.push_back(spec::print(sp, *e, {}));
      tensors.push_back({{"name", t.name}, {"type", spec::elemTypeName(t.type)}, {"mode", spec::modeName(t.mode)},
                         {"extents", ext}});
    }
    nlohmann::json dims = nlohmann::json::array(), scalars = nlohmann::json::array();
    for (const spec::Dim &d : sp.dims)
      dims.push_back(d.name);
    for (const spec::Scalar &x : sp.scalars)
      scalars.push_back({{"name", x.name}, {"type", spec::elemTypeName(x.type)}});
    nlohmann::json out = {{"tool", "ksynth"}, {"spec", file},         {"name", sp.name},     {"verdict", "ok"},
                          {"dims", dims},     {"scalars", scalars},   {"tensors", tensors}, {"satisfiable", c.satisfiable},
                          {"example", c.example}, {"queries", c.queries}, {"time_ms", c.ms}};
    if (print)
      out["canonical"] = spec::print(sp);
    if (explain)
      out["explanation"] = spec::explain(sp);
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (print)
    std::cout << spec::print(sp);
  if (explain)
    std::cout << spec::explain(sp);
  if (!print && !explain)
    std::cout << "spec " << sp.name << ": well formed (assumptions satisfiable" << (example.empty() ? "" : ", e.g. " + example)
              << "; " << c.queries << " queries)\n";
  return 0;
}

} // namespace

int verifyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  return verifyMain(args, out, err);
}

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty())
    return usage("no command (try 'ksynth verify FILE.cu' or 'ksynth help')");
  const std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    printHelp();
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    std::cout << "ksynth " << KSYNTH_VERSION << " (" << smt::Solver::version() << ", clang 19)\n";
    return 0;
  }
  if (cmd == "--print-prelude") {
    std::cout << frontend::preludeText();
    return 0;
  }
  if (cmd == "verify")
    return verifyMain(rest, std::cout, std::cerr);
  if (cmd == "spec")
    return specMain(rest);
  if (cmd == "check-proof")
    return checkProofMain(rest);
  if (cmd == "run")
    return runMain(rest);
  // The GPU runner's child processes (gpu/run.h, gpu/device.h); not for people.
  if (cmd == "__gpu-probe")
    return gpu::probeMain();
  if (cmd == "__gpu-run" && rest.size() == 1)
    return gpu::gpuRunMain(rest[0]);
  if (cmd == "bench")
    return usage("'bench' is not implemented yet in this version");
  return usage("unknown command '" + cmd + "'");
}

} // namespace ksynth::cli
