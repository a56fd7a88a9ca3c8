// Verification driver: one file in, a FileReport out (parse, select, bind, check, bundle).
#include "verify/driver/driver.h"

#include "util/deadline.h"

#include "bundle/bundle.h"
#include "util/version.h"
#include "verify/driver/combine.h"
#include "verify/driver/launch.h"
#include "verify/driver/spec_obligations.h"
#include "verify/ir/cexpr.h"
#include "verify/smt/solver.h"
#include "verify/spec/bind.h"
#include "verify/spec/check.h"
#include "verify/spec/parser.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>

namespace ksynth::driver {

namespace {

const std::set<std::string> kSafetyChecks = {"race", "barrier", "bounds", "overflow", "assert", "warp", "align"};
const std::set<std::string> kSpecChecks = {"coverage", "equivalence"};

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

FileReport failed(FileReport::Outcome outcome, const FileReport &base, std::string errors) {
  FileReport r;
  r.outcome = outcome;
  r.file = base.file;
  r.specFile = base.specFile;
  r.errors = std::move(errors);
  r.kirText = base.kirText;
  return r;
}

// Parses and checks the spec file; nullopt (with the report filled in) when it is malformed.
std::optional<spec::Spec> loadSpec(const std::string &path, FileReport &rep) {
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
    rep.errors += spec::format(path, d) + "\n";
    list.push_back({{"line", d.loc.line}, {"col", d.loc.col}, {"message", d.message}});
  }
  rep.errors += "ksynth: error: spec '" + path + "' is malformed\n";
  rep.outcome = FileReport::Outcome::Malformed;
  rep.malformedPart = "spec";
  rep.malformedErrors = list;
  return std::nullopt;
}

// The kernels of the file that the request selects; empty with the report filled in.
// A kernel's name without its template arguments.
std::string baseName(const std::string &n) { return n.substr(0, n.find('<')); }

// Whether a kernel's name is the one --kernel gives, blanks aside (`k<256,float>` names the
// instance reported as `k<256, float>`).
bool sameName(const std::string &a, const std::string &b) {
  auto squeeze = [](std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t'; }), s.end());
    return s;
  };
  return squeeze(a) == squeeze(b);
}

// Whether --kernel names a template instance (`k<int>`) of a template kernel of the file that
// the file does not make: then the file is parsed again with that instance made.
bool instanceToMake(const std::string &kernel, const frontend::ParseResult &pr) {
  if (kernel.find('<') == std::string::npos)
    return false;
  bool isTemplate = false;
  for (const ir::Kernel &k : pr.kernels) {
    if (sameName(k.name, kernel))
      return false;
    isTemplate |= k.name.find('<') != std::string::npos && baseName(k.name) == baseName(kernel);
  }
  for (const std::string &t : pr.uninstantiated)
    isTemplate |= t == baseName(kernel);
  return isTemplate;
}

std::vector<size_t> selectKernels(const VerifyRequest &req, const frontend::ParseResult &pr,
                                  const std::optional<spec::Spec> &sp, FileReport &rep) {
  // A template kernel's instances are named k<256, float>: --kernel k selects them all.
  std::vector<size_t> selected;
  for (size_t i = 0; i < pr.kernels.size(); ++i)
    if (req.kernel.empty() || sameName(pr.kernels[i].name, req.kernel) ||
        (req.kernel.find('<') == std::string::npos && baseName(pr.kernels[i].name) == req.kernel))
      selected.push_back(i);
  if (sp && selected.size() > 1) {
    // One kernel implements the spec: the one named like it, or the one --kernel names.
    std::vector<size_t> named;
    for (size_t i : selected)
      if (baseName(pr.kernels[i].name) == sp->name)
        named.push_back(i);
    if (named.size() != 1) {
      rep.outcome = FileReport::Outcome::Usage;
      rep.usage = "'" + req.file + "' has " + std::to_string(selected.size()) +
                  " kernels; name the one that implements spec '" + sp->name + "' with --kernel";
      return {};
    }
    selected = named;
  }
  if (selected.empty()) {
    rep.outcome = FileReport::Outcome::Malformed;
    rep.errors = "ksynth: error: " +
                 (req.kernel.empty() ? "no __global__ kernel with a body in '" + req.file + "'"
                                     : "no __global__ kernel named '" + req.kernel + "'") +
                 "\n";
    for (const std::string &t : pr.uninstantiated)
      rep.errors += "ksynth: note: template kernel '" + t +
                    "' is never instantiated: name an instance with --kernel '" + t +
                    "<...>', add an explicit instantiation (template __global__ void " + t +
                    "<...>(...);) or name the instance on the launch line (// ksynth:launch kernel=" + t +
                    "<...> grid=... block=...)\n";
  }
  return selected;
}

// A launch dimension's constant value: integer literals under casts, negation, +, - and *
// (small enough not to wrap); none for anything else.
std::optional<int64_t> constantValue(const ir::Expr &x, int depth) {
  if (depth > 64 || x.type.isFloat())
    return std::nullopt;
  if (x.op == ir::Op::Const)
    return x.ival;
  std::vector<int64_t> a;
  for (const ir::ExprPtr &k : x.args) {
    std::optional<int64_t> v = k ? constantValue(*k, depth + 1) : std::nullopt;
    if (!v || *v > (int64_t{1} << 40) || *v < -(int64_t{1} << 40))
      return std::nullopt;
    a.push_back(*v);
  }
  if ((x.op == ir::Op::Cast || x.op == ir::Op::Neg) && a.size() == 1)
    return x.op == ir::Op::Neg ? -a[0] : a[0];
  if (a.size() != 2)
    return std::nullopt;
  switch (x.op) {
  case ir::Op::Add: return a[0] + a[1];
  case ir::Op::Sub: return a[0] - a[1];
  case ir::Op::Mul: return a[0] * a[1];
  default: return std::nullopt;
  }
}

// What no GPU launches, in a launch dimension as written: a constant that is not positive, a
// grid beyond CUDA's limits (x < 2^31, y and z <= 65535), a division by a constant zero.
// Empty when none. Blocks over 1024 threads are checked as given (GPUVerify's suites use
// them), with the report saying so.
std::string launchProblem(const ir::Expr &e, const std::string &what, int d) {
  std::vector<const ir::Expr *> todo{&e};
  while (!todo.empty()) {
    const ir::Expr *x = todo.back();
    todo.pop_back();
    if ((x->op == ir::Op::Div || x->op == ir::Op::Rem) && x->args.size() == 2 && x->args[1]->op == ir::Op::Const &&
        x->args[1]->ival == 0 && x->args[1]->fval == 0)
      return "division by zero";
    // The block is fixed first, then the grid: a grid may be written over blockDim, nothing
    // over itself or the grid.
    if (x->op == ir::Op::Builtin) {
      auto b = static_cast<ir::Builtin>(x->id);
      if (b == ir::Builtin::GridDim)
        return "a launch dimension cannot be written over gridDim (write the grid over the kernel's "
               "parameters, e.g. (n + 255) / 256, or leave it out to make it symbolic)";
      if (b == ir::Builtin::BlockDim && what == "block")
        return "a block dimension cannot be written over blockDim (leave it out to make it symbolic)";
      if (b != ir::Builtin::BlockDim)
        return "a launch dimension cannot use threadIdx or blockIdx";
    }
    for (const ir::ExprPtr &a : x->args)
      if (a)
        todo.push_back(a.get());
  }
  std::optional<int64_t> cv = constantValue(e, 0);
  if (!cv)
    return ""; // over the kernel's sizes: the launch's own assumptions bound it
  int64_t v = *cv;
  if (v < 1)
    return "a launch dimension must be at least 1, not " + std::to_string(v);
  if (what == "grid" && v > (d == 0 ? int64_t{2147483647} : int64_t{65535}))
    return std::string("CUDA's grid is at most ") + (d == 0 ? "2^31-1" : "65535") + " blocks in " +
           (d == 0 ? "x" : d == 1 ? "y" : "z") + ", not " + std::to_string(v);
  return "";
}

// For each header clang could not find (it stops at the first), the flag that would let it
// find it, and which headers ksynth provides itself.
std::string missingHeaderNotes(const std::string &clangOutput) {
  std::string notes;
  std::set<std::string> seen;
  size_t p = 0;
  while ((p = clangOutput.find("' file not found", p)) != std::string::npos) {
    size_t q = clangOutput.rfind('\'', p - 1);
    std::string header = q == std::string::npos ? "" : clangOutput.substr(q + 1, p - q - 1);
    p += 16;
    if (header.empty() || !seen.insert(header).second)
      continue;
    notes += "ksynth: note: '" + header + "' was not found: give the folder that holds it with -I DIR, as to nvcc, "
             "or the CUDA toolkit's with --cuda-path DIR (ksynth provides the CUDA runtime's headers, cuda_fp16.h, "
             "cuda_bf16.h, cuda_fp8.h, cooperative_groups.h, mma.h, curand_kernel.h and cub/cub.cuh itself, and "
             "declarations of cuBLAS, cuBLASLt, cuDNN, cuFFT, cuRAND, NCCL, MPI, NVTX and OpenMP for host code)\n";
  }
  return notes;
}

// The launch (--block/--grid, else the launch line) and --assume as IR expressions over the
// kernel's parameters; false with the report filled in when one does not parse.
bool launchOptions(const VerifyRequest &req, const ir::Kernel &k, const std::vector<std::string> &blockText,
                   const std::vector<std::string> &gridText, check::Options &opts, FileReport &rep) {
  for (int d = 0; d < 3; ++d) {
    for (auto [texts, dest, what] :
         {std::tuple{&blockText, &opts.block, "block"}, std::tuple{&gridText, &opts.grid, "grid"}}) {
      if (static_cast<size_t>(d) < texts->size() && !(*texts)[d].empty()) {
        std::string err;
        ir::ExprPtr e = ir::parseCExpr(k, (*texts)[d], err);
        if (!e) {
          rep.outcome = FileReport::Outcome::Usage;
          rep.errors = std::string("ksynth: error: ") + what + " dimension '" + (*texts)[d] + "': " + err + "\n";
          return false;
        }
        if (std::string bad = launchProblem(*e, what, d); !bad.empty()) {
          rep.outcome = FileReport::Outcome::Usage;
          rep.errors = std::string("ksynth: error: ") + what + " dimension '" + (*texts)[d] + "': " + bad + "\n";
          return false;
        }
        (*dest)[d] = e;
      } else if (static_cast<size_t>(d) >= texts->size() && !texts->empty()) {
        (*dest)[d] = ir::mkConstInt(1, ir::Type::i64()); // --block 256 means (256, 1, 1)
      }
    }
  }
  for (const std::string &a : req.assumes) {
    std::string err;
    ir::ExprPtr e = ir::parseCExpr(k, a, err);
    if (!e) {
      rep.outcome = FileReport::Outcome::Usage;
      rep.errors = "ksynth: error: --assume '" + a + "': " + err + "\n";
      return false;
    }
    opts.assumes.push_back(e);
  }
  return true;
}

nlohmann::json bindErrorsJson(const spec::Binding &b, const VerifyRequest &req) {
  nlohmann::json list = nlohmann::json::array();
  for (const spec::BindError &e : b.errors)
    list.push_back(
        {{"file", e.inSpec ? req.spec : req.file}, {"line", e.line}, {"col", e.col}, {"message", e.message}});
  return list;
}

// A kernel whose verification the time limit (--timeout) cut short: every obligation it was
// to decide is unknown, with the limit as the reason (nothing half-decided is kept).
KernelResult timedOut(const ir::Kernel &k, const std::set<std::string> &checks) {
  KernelResult run;
  run.report.name = k.name;
  run.report.verdict = check::Status::Unknown;
  for (const std::string &c : checks) {
    check::Obligation o;
    if (!check::kindFromName(c, o.kind))
      continue;
    o.name = c;
    o.reason = "not decided: the time limit of the command (" + util::deadlineText() + ", --timeout) was reached";
    run.report.obligations.push_back(std::move(o));
  }
  return run;
}

} // namespace

bool resolveChecks(const VerifyRequest &req, std::set<std::string> &out, std::string &why) {
  out = req.checksSet ? req.checks : kSafetyChecks;
  bool all = !req.checksSet || out.erase("all");
  if (all)
    out.insert(kSafetyChecks.begin(), kSafetyChecks.end());
  if (req.spec.empty()) {
    for (const std::string &c : kSpecChecks)
      if (out.count(c)) {
        why = "check '" + c + "' needs --spec SPEC.smt";
        return false;
      }
  } else if (all) {
    out.insert(kSpecChecks.begin(), kSpecChecks.end());
  }
  return true;
}

namespace {

FileReport verifyFileWithin(const VerifyRequest &req) {
  FileReport rep;
  rep.file = req.file;
  rep.specFile = req.spec;
  rep.version = util::version();
  rep.withStats = req.stats;
  rep.solver = smt::Solver::version();
  {
    std::string why;
    if (!resolveChecks(req, rep.checks, why))
      return rep.outcome = FileReport::Outcome::Usage, rep.usage = why, rep;
  }
  if (req.block.size() > 3 || req.grid.size() > 3)
    return rep.outcome = FileReport::Outcome::Usage, rep.usage = "--block/--grid take at most three dimensions", rep;
  if (!std::ifstream(req.file))
    return failed(FileReport::Outcome::Malformed, rep, "ksynth: error: cannot read '" + req.file + "'\n");
  if (!req.proofDir.empty()) { // a bundle holds this run's queries only
    std::error_code ec;
    std::filesystem::remove_all(std::filesystem::path(req.proofDir) / "queries", ec);
  }

  // 1. Parse the spec and the kernel file; pick the kernels.
  auto t0 = std::chrono::steady_clock::now();
  std::optional<spec::Spec> sp;
  if (!req.spec.empty() && !(sp = loadSpec(req.spec, rep)))
    return rep;
  if (sp)
    rep.specName = sp->name;
  LaunchLine ll = findLaunchLine(req.file);
  frontend::Options fe = req.fe;
  addLineDefines(ll, fe.defines); // a GPUVerify flag line's -D, as GPUVerify would parse it
  frontend::ParseResult pr = frontend::parseFile(req.file, fe);
  if (pr.parsed && instanceToMake(req.kernel, pr)) {
    fe.instances.push_back(req.kernel);
    pr = frontend::parseFile(req.file, fe);
  }
  rep.cudaToolkit = pr.toolkitInclude;
  rep.headerNotes = pr.headerNotes;
  if (!pr.parsed) {
    rep.outcome = FileReport::Outcome::Malformed;
    rep.errors = pr.clangOutput + "ksynth: error: '" + req.file + "' does not parse\n" + missingHeaderNotes(pr.clangOutput);
    rep.malformedPart = "kernel";
    rep.malformedErrors = pr.clangOutput;
    return rep;
  }
  std::vector<size_t> selected = selectKernels(req, pr, sp, rep);
  if (selected.empty())
    return rep;

  // 2. Each kernel: launch, binding, safety checks, then the spec obligations.
  auto publish = [&](size_t done) {
    if (!req.progress)
      return;
    FileReport snap = rep;
    for (size_t i = done; i < selected.size(); ++i)
      snap.kernels.push_back(timedOut(pr.kernels[selected[i]], rep.checks));
    std::vector<check::Status> vs;
    for (const KernelResult &r : snap.kernels)
      vs.push_back(r.report.verdict);
    snap.verdict = fileVerdict(vs);
    req.progress(snap);
  };
  publish(0);
  for (size_t idx : selected) {
    const ir::Kernel &k = pr.kernels[idx];
    try {
      if (req.dumpKir)
        rep.kirText += ir::print(k);
      check::Options opts;
      opts.checks = rep.checks;
      opts.timeoutMs = static_cast<unsigned>(req.timeoutS * 1000);
      opts.dumpSmtDir =
          req.proofDir.empty() ? req.dumpSmt : (std::filesystem::path(req.proofDir) / "queries").string();
      // Kernels of one name (overloads) write their queries to their own directories.
      std::string querySub;
      if (!opts.dumpSmtDir.empty() &&
          std::count_if(selected.begin(), selected.end(), [&](size_t j) { return pr.kernels[j].name == k.name; }) > 1) {
        querySub = "k" + std::to_string(idx);
        opts.dumpSmtDir = (std::filesystem::path(opts.dumpSmtDir) / querySub).string();
      }
      smt::QueryLog log(opts.dumpSmtDir); // every query of this kernel: --stats, the dumps
      opts.log = &log;
      // The launch: --block/--grid, else the file's launch line (ksynth's or GPUVerify's),
      // else what the host code's launches of this kernel give.
      std::vector<std::string> blockText = req.blockSet ? req.block : ll.block;
      std::vector<std::string> gridText = req.gridSet ? req.grid : ll.grid;
      // --host-args: the program as its host code runs it. When the launch is the host code's
      // alone (no --block, --grid, launch line or spec), so are the integers every launch passes.
      std::vector<ir::ExprPtr> hostArgs;
      std::string given;
      if (const frontend::HostLaunch &hl = pr.hostLaunches[idx];
          req.hostArgs && !ll.found && hl.count > 0 && !req.blockSet && !req.gridSet && !sp) {
        for (const ir::Var &v : k.vars) {
          if (v.paramIndex < 0 || static_cast<size_t>(v.paramIndex) >= hl.args.size() ||
              hl.args[v.paramIndex].empty() || v.type.isPtr() || v.name.find('.') != std::string::npos)
            continue;
          std::string err, text = v.name + " == " + hl.args[v.paramIndex];
          if (ir::ExprPtr e = ir::parseCExpr(k, text, err)) {
            hostArgs.push_back(e);
            given += (given.empty() ? "" : ", ") + v.name + " = " + hl.args[v.paramIndex];
          }
        }
      }
      std::string hostNote;
      if (const frontend::HostLaunch &hl = pr.hostLaunches[idx]; !ll.found && hl.count > 0) {
        if (!req.blockSet)
          blockText = hl.block;
        if (!req.gridSet)
          gridText = hl.grid;
        if (!req.blockSet || !req.gridSet)
          hostNote = "launch as the host code's " + std::to_string(hl.count) + " launch(es) of it make it (line " +
                     std::to_string(hl.line) + "): " + (req.blockSet ? "" : "block=" + dimsText(hl.block) + " ") +
                     (req.gridSet ? "" : "grid=" + dimsText(hl.grid) + " ") +
                     (given.empty() ? "" : "with the integer arguments every launch passes (--host-args), " + given + " ") +
                     "(? = symbolic; give --block/--grid or a '// ksynth:launch' line to verify other launches" +
                     (given.empty() ? ")" : ", and leave out --host-args to verify every value of those arguments)");
      }
      if (!launchOptions(req, k, blockText, gridText, opts, rep))
        return failed(FileReport::Outcome::Usage, rep, rep.errors);
      opts.assumes.insert(opts.assumes.end(), hostArgs.begin(), hostArgs.end());
      spec::Binding binding;
      if (sp) {
        binding = spec::bind(*sp, k);
        if (!binding.ok()) {
          std::string errors;
          for (const spec::BindError &e : binding.errors)
            errors += (e.inSpec ? req.spec : req.file) + ":" + std::to_string(e.line) + ":" + std::to_string(e.col) +
                      ": error: " + e.message + "\n";
          errors += "ksynth: error: kernel '" + k.name + "' does not match spec '" + sp->name + "'\n";
          FileReport bad = failed(FileReport::Outcome::Malformed, rep, errors);
          bad.malformedPart = "binding";
          bad.malformedErrors = bindErrorsJson(binding, req);
          return bad;
        }
        for (const spec::Precondition &p : binding.preconditions)
          opts.assumes.push_back(p.expr);
        std::set<std::string> safety;
        for (const std::string &c : rep.checks)
          if (kSafetyChecks.count(c))
            safety.insert(c);
        opts.checks = safety;
      }
      auto k0 = std::chrono::steady_clock::now();
      KernelResult run;
      run.report = check::verifyKernel(k, opts);
      // A proven obligation with a query rests on the kernel's lemmas too (loop summaries).
      for (check::Obligation &o : run.report.obligations)
        if (o.status == check::Status::Proven && !o.queries.empty())
          o.queries.insert(o.queries.end(), run.report.lemmas.begin(), run.report.lemmas.end());
      for (const std::string &a : req.assumes)
        run.report.assumptions.push_back("--assume " + a);
      if (std::string note = launchLineNote(ll, req.blockSet, req.gridSet); !note.empty())
        run.report.assumptions.push_back(note);
      if (!hostNote.empty())
        run.report.assumptions.push_back(hostNote);
      if (sp)
        addSpecObligations(run.report, *sp, req, rep.checks, binding, k, opts);
      if (!querySub.empty())
        for (check::Obligation &o : run.report.obligations)
          for (std::string &q : o.queries)
            q = querySub + "/" + q;
      run.notes = pr.notes[idx];
      run.queries.assign(log.records().begin(), log.records().end());
      run.ms = msSince(k0);
      rep.kernels.push_back(std::move(run));
    } catch (const util::TimeLimit &) {
      rep.kernels.push_back(timedOut(k, rep.checks));
    }
    publish(rep.kernels.size());
  }
  // A template kernel the file never instantiates has nothing to verify; beside other kernels
  // it still gets a verdict of its own (unknown, saying how to instantiate it), never silence.
  if (req.kernel.empty() && !sp)
    for (const std::string &t : pr.uninstantiated) {
      KernelResult run;
      run.report.name = t;
      run.report.verdict = check::Status::Unknown;
      for (const std::string &c : rep.checks) {
        check::Obligation o;
        if (!check::kindFromName(c, o.kind))
          continue;
        o.name = c;
        o.reason = "template kernel '" + t + "' is never instantiated, so there is no code to verify: name an " +
                   "instance with --kernel '" + t + "<...>', add an explicit instantiation (template __global__ " +
                   "void " + t + "<...>(...);), launch it from host code, or name the instance on the launch " +
                   "line (// ksynth:launch kernel=" + t + "<...> ...)";
        run.report.obligations.push_back(std::move(o));
      }
      rep.kernels.push_back(std::move(run));
    }
  rep.ms = msSince(t0);

  // 3. The file's verdict, and the proof bundle.
  std::vector<check::Status> verdicts;
  for (const KernelResult &r : rep.kernels)
    verdicts.push_back(r.report.verdict);
  rep.verdict = fileVerdict(verdicts);
  if (!req.proofDir.empty()) {
    std::string why;
    if (!bundle::writeProofBundle(req.proofDir, rep.toJson(), req.file, req.spec, req.command, why))
      return failed(FileReport::Outcome::Internal, rep, "ksynth: error: proof bundle: " + why + "\n");
  }
  return rep;
}

} // namespace

FileReport verifyFile(const VerifyRequest &req) {
  util::DeadlineScope limit(req.limitS); // the whole verification's --timeout
  try {
    return verifyFileWithin(req);
  } catch (const util::TimeLimit &) {
    // The limit passed outside a kernel's checks (reading the spec, parsing): no verdict.
    FileReport rep;
    rep.file = req.file;
    rep.specFile = req.spec;
    rep.version = util::version();
    rep.solver = smt::Solver::version();
    rep.verdict = check::Status::Unknown;
    rep.errors = "ksynth: warning: the time limit of the command (" + util::deadlineText() +
                 ", --timeout) was reached before any kernel was checked [timeout]\n";
    return rep;
  }
}

} // namespace ksynth::driver
