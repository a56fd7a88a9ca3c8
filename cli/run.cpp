// `ksynth run KERNEL.cu --spec SPEC.smt`: verify, compile, run on fresh inputs, compare with
// the spec and time (gpu/). A kernel that is not proven is refused unless --unverified is
// given, and then every line of the report says so.
#include "cli/commands.h"
#include "cli/options.h"

#include "gpu/device.h"
#include "gpu/plan.h"
#include "gpu/run.h"
#include "util/exit_codes.h"
#include "util/process.h"
#include "verify/driver/driver.h"
#include "verify/driver/launch.h"
#include "verify/frontend/frontend.h"
#include "verify/ir/cexpr.h"
#include "verify/spec/bind.h"
#include "verify/spec/parser.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace ksynth::cli {

namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = kExitRunOk, kExitWrong = kExitRunWrong, kExitNotRun = kExitRunNotRun;

struct RunArgs {
  std::string file, spec, kernel, backend = "auto", arch, nvcc, keep;
  std::map<std::string, double> values;
  std::vector<std::string> block, grid;
  bool blockSet = false, gridSet = false;
  frontend::Options fe;
  int repeats = 5, warmup = 2;
  int64_t samples = 4096;
  uint64_t seed = 1;
  bool json = false, unverified = false;
  bool noProof = false; // --no-proof: run as an unverified harness would (implies --unverified)
  double timeoutS = 120, verifyTimeoutS = 10, rtol = -1;
};

int runUsage(const std::string &msg) {
  std::cerr << "ksynth: error: " << msg << "\n"
            << "usage: ksynth run KERNEL.cu --spec SPEC.smt [--size NAME=VALUE ...] [--backend gpu|cpu]\n"
            << "                  [--repeat R] [--warmup W] [--seed S] [--json] [--unverified|--no-proof] [--arch sm_XX]\n"
            << "                  [--nvcc PATH|none] [--kernel NAME] [--grid ...] [--block ...] [-D ...] [-I ...]\n"
            << "                  [--timeout S] [--rtol X] [--samples N] [--keep DIR]\n";
  return kExitUsage;
}

std::string selfPath() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "ksynth" : p.string();
}

std::string fmt(double x, int prec = 3) {
  std::ostringstream os;
  os << std::setprecision(prec) << x;
  return os.str();
}

std::string dimsText(const std::map<std::string, int64_t> &d) {
  std::string s;
  for (const auto &[n, v] : d)
    s += (s.empty() ? "" : ", ") + n + "=" + std::to_string(v);
  return s;
}

std::string tripleText(const std::array<int64_t, 3> &t) {
  return "(" + std::to_string(t[0]) + "," + std::to_string(t[1]) + "," + std::to_string(t[2]) + ")";
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The options of `ksynth run`; an exit code (the usage error printed) on a bad one.
std::optional<int> parseRunArgs(const std::vector<std::string> &args, RunArgs &ra) {
  Options opt(args);
  while (opt.next()) {
    const std::string &a = opt.arg();
    auto value = [&](const std::string &flag) { return opt.value(flag); };
    auto is = [&](const std::string &flag) { return opt.is(flag); };
    auto number = [&](const std::string &flag, double &out, double lo, double hi) -> bool {
      auto v = opt.value(flag);
      std::optional<double> n = v ? parseNumber(*v, lo, hi) : std::nullopt;
      out = n ? *n : NAN;
      return n.has_value();
    };
    double x = 0;
    if (a == "--size") {
      // --size M=4096 N=4096 K=4096: every NAME=VALUE that follows.
      bool any = false;
      for (const std::string &nv : opt.assignmentsFollowing()) {
        size_t eq = nv.find('=');
        // A non-finite value parses: the plan refuses it with its reason.
        std::optional<double> v = eq == std::string::npos ? std::nullopt : parseDouble(nv.substr(eq + 1));
        if (!v)
          return runUsage("--size " + nv + ": the value is not a number");
        ra.values[nv.substr(0, eq)] = *v;
        any = true;
      }
      if (!any)
        return runUsage("--size needs NAME=VALUE (e.g. --size M=4096 N=4096)");
    } else if (is("--spec")) {
      auto v = value("--spec");
      if (!v)
        return runUsage("--spec needs a spec file");
      ra.spec = *v;
    } else if (is("--backend")) {
      auto v = value("--backend");
      if (!v || (*v != "gpu" && *v != "cpu" && *v != "auto"))
        return runUsage("--backend is gpu or cpu");
      ra.backend = *v;
    } else if (is("--repeat")) {
      if (!number("--repeat", x, 1, 10000) || x != std::floor(x))
        return runUsage("--repeat needs a count from 1 to 10000");
      ra.repeats = static_cast<int>(x);
    } else if (is("--warmup")) {
      if (!number("--warmup", x, 0, 1000) || x != std::floor(x))
        return runUsage("--warmup needs a count from 0 to 1000");
      ra.warmup = static_cast<int>(x);
    } else if (is("--samples")) {
      if (!number("--samples", x, 1, 1e9) || x != std::floor(x))
        return runUsage("--samples needs a positive count");
      ra.samples = static_cast<int64_t>(x);
    } else if (is("--seed")) {
      if (!number("--seed", x, 0, 9e15) || x != std::floor(x))
        return runUsage("--seed needs a non-negative integer");
      ra.seed = static_cast<uint64_t>(x);
    } else if (is("--timeout")) {
      if (!number("--timeout", x, 1, 86400))
        return runUsage("--timeout needs seconds (the runner's watchdog)");
      ra.timeoutS = x;
    } else if (is("--verify-timeout")) {
      if (!number("--verify-timeout", x, 0.1, 86400))
        return runUsage("--verify-timeout needs seconds");
      ra.verifyTimeoutS = x;
    } else if (is("--rtol")) {
      if (!number("--rtol", x, 0, 1))
        return runUsage("--rtol needs a number in [0, 1]");
      ra.rtol = x;
    } else if (is("--arch")) {
      auto v = value("--arch");
      if (!v || v->rfind("sm_", 0) != 0)
        return runUsage("--arch needs a target like sm_90");
      ra.arch = *v;
    } else if (is("--nvcc")) {
      auto v = value("--nvcc");
      if (!v || v->empty())
        return runUsage("--nvcc needs a path (or none)");
      ra.nvcc = *v;
    } else if (is("--keep")) {
      auto v = value("--keep");
      if (!v || v->empty())
        return runUsage("--keep needs a directory");
      ra.keep = *v;
    } else if (is("--kernel")) {
      auto v = value("--kernel");
      if (!v)
        return runUsage("--kernel needs a name");
      ra.kernel = *v;
    } else if (is("--block") || is("--grid")) {
      bool block = is("--block");
      auto v = value(block ? "--block" : "--grid");
      if (!v)
        return runUsage(a + " needs X[,Y[,Z]]");
      (block ? ra.block : ra.grid) = driver::splitDims(*v);
      (block ? ra.blockSet : ra.gridSet) = true;
    } else if (std::string err; preprocessorOption(opt, ra.fe, err)) {
      if (!err.empty())
        return runUsage(err);
    } else if (a == "--json") {
      ra.json = true;
    } else if (a == "--unverified") {
      ra.unverified = true;
    } else if (a == "--no-proof") {
      ra.unverified = ra.noProof = true;
    } else if (opt.isOption()) {
      return runUsage("unknown option '" + a + "'");
    } else if (ra.file.empty()) {
      ra.file = a;
    } else {
      return runUsage("more than one kernel file ('" + ra.file + "', '" + a + "')");
    }
  }
  if (ra.file.empty())
    return runUsage("no kernel file");
  if (ra.spec.empty())
    return runUsage("run needs --spec SPEC.smt (the reference the outputs are compared with)");
  if (ra.block.size() > 3 || ra.grid.size() > 3)
    return runUsage("--block/--grid take at most three dimensions");
  return std::nullopt;
}

// One `ksynth run`: its phases in order, each adding to the report (`out`, `lines`) and
// returning the exit code to stop with, or nothing to go on.
class RunSession {
public:
  explicit RunSession(RunArgs a) : ra(std::move(a)) {}
  ~RunSession() {
    std::error_code ec;
    if (removeWork && !work.empty())
      fs::remove_all(work, ec);
  }
  int run() {
    for (auto phase : {&RunSession::prove, &RunSession::bindKernel, &RunSession::chooseBackend,
                       &RunSession::chooseSizes, &RunSession::compile})
      if (std::optional<int> code = (this->*phase)())
        return *code;
    return runAndCompare();
  }

private:
  RunArgs ra;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  nlohmann::json out = {{"tool", "ksynth"}, {"command", "run"}, {"file", ra.file}, {"spec", ra.spec}};
  std::vector<std::string> lines; // the text report
  bool flagged = false;           // unverified: every line says so
  // What the phases find, for the ones after them.
  spec::ParseResult spr;
  frontend::ParseResult pr;
  const ir::Kernel *kp = nullptr;
  spec::Binding binding;
  gpu::PlanRequest req;
  std::string self, nvcc, nvccWhy, backend;
  gpu::DeviceInfo dev;
  std::optional<gpu::Plan> plan;
  fs::path work;
  bool removeWork = false;

  void say(const std::string &s) { lines.push_back(s); }
  int finish(int code, const std::string &result);
  std::optional<int> prove();
  std::optional<int> bindKernel();
  std::optional<int> chooseBackend();
  std::optional<int> chooseSizes();
  std::optional<int> compile();
  int runAndCompare();
};

int RunSession::finish(int code, const std::string &result) {
  out["result"] = result;
  out["exit"] = code;
  out["unverified"] = flagged;
  out["time_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (ra.json) {
    std::cout << out.dump(2) << "\n";
  } else {
    for (const std::string &l : lines)
      std::cout << (flagged ? "[UNVERIFIED] " : "") << l << "\n";
    std::cout << (flagged ? "[UNVERIFIED] " : "") << "RESULT: " << result << "\n";
  }
  return code;
}

// 1. The proof: refused unless proven (or --unverified).
std::optional<int> RunSession::prove() {
  if (ra.noProof) { // a plain test harness's run: nothing checked before it
    flagged = true;
    out["verification"] = {{"verdict", "not checked"}};
    say("verification: not checked (--no-proof): nothing below is backed by a proof");
    return std::nullopt;
  }
  driver::VerifyRequest vreq;
  vreq.file = ra.file;
  vreq.spec = ra.spec;
  vreq.kernel = ra.kernel;
  vreq.fe = ra.fe;
  vreq.timeoutS = ra.verifyTimeoutS;
  vreq.block = ra.block, vreq.blockSet = ra.blockSet;
  vreq.grid = ra.grid, vreq.gridSet = ra.gridSet;
  driver::FileReport vrep = driver::verifyFile(vreq);
  if (vrep.outcome != driver::FileReport::Outcome::Verified) {
    std::cerr << vrep.errors;
    if (!vrep.usage.empty())
      return usage(vrep.usage, std::cerr);
    if (vrep.outcome != driver::FileReport::Outcome::Usage && vrep.malformedPart.empty())
      std::cerr << "ksynth: error: verification of '" << ra.file << "' gave no verdict\n";
    return vrep.exitCode();
  }
  std::string verdict = check::statusName(vrep.verdict);
  double verifyMs = vrep.ms;
  out["verification"] = {{"verdict", verdict}, {"time_ms", verifyMs}};
  if (verdict != "proven") {
    if (!ra.unverified) {
      std::cerr << "ksynth: error: refusing to run '" << ra.file << "': it is not proven against '" << ra.spec
                << "' (verdict: " << verdict << "); 'ksynth verify " << ra.file << " --spec " << ra.spec
                << "' says why; --unverified runs it anyway\n";
      say("verification: " + verdict + " (" + fmt(verifyMs / 1000, 3) + " s): not run");
      return finish(verdict == "refuted" ? kExitWrong : kExitNotRun, "REFUSED");
    }
    flagged = true;
  }
  say("verification: " + verdict + " (" + fmt(verifyMs / 1000, 3) + " s)" +
      (flagged ? "; running it anyway (--unverified): nothing below is backed by a proof" : ""));
  return std::nullopt;
}

// 2. The kernel and its binding (verify accepted both), and the launch.
std::optional<int> RunSession::bindKernel() {
  spr = spec::parseFile(ra.spec);
  driver::LaunchLine line = driver::findLaunchLine(ra.file);
  driver::addLineDefines(line, ra.fe.defines); // nvcc needs them too
  pr = frontend::parseFile(ra.file, ra.fe);
  if (!spr.spec || !pr.parsed) {
    std::cerr << "ksynth: error: '" << ra.file << "' or '" << ra.spec << "' does not parse\n";
    return kExitMalformed;
  }
  const spec::Spec &sp = *spr.spec;
  kp = nullptr;
  for (const ir::Kernel &k : pr.kernels) {
    bool pick = !ra.kernel.empty() ? k.name == ra.kernel : (pr.kernels.size() == 1 || k.name == sp.name);
    if (pick) {
      if (kp)
        return runUsage("'" + ra.file + "' has several kernels named '" + k.name + "'");
      kp = &k;
    }
  }
  if (!kp)
    return runUsage("no kernel to run in '" + ra.file + "' (name it with --kernel)");
  const ir::Kernel &k = *kp;
  binding = spec::bind(sp, k);
  if (!binding.ok()) {
    std::cerr << "ksynth: error: kernel '" << k.name << "' does not match spec '" << sp.name << "'\n";
    return kExitMalformed;
  }
  out["kernel"] = k.name;
  for (const auto &[n, v] : ra.values)
    if (sp.findDim(n) < 0 && sp.findScalar(n) < 0)
      return runUsage("--size " + n + ": spec '" + sp.name + "' has no dim or scalar '" + n + "'");
  // ksynth parses the file with __KSYNTH__ defined for sm_80; nvcc compiles it without, for
  // the GPU's architecture. Code that tests either can differ from what was proven.
  {
    std::ifstream in(ra.file);
    std::stringstream text;
    text << in.rdbuf();
    std::string src = text.str();
    for (const char *m : {"__KSYNTH__", "__CUDA_ARCH__"})
      if (src.find(m) != std::string::npos && !flagged) {
        std::string why = std::string("'") + ra.file + "' tests " + m +
                          ": the code nvcc compiles may not be the code ksynth verified";
        if (!ra.unverified) {
          std::cerr << "ksynth: error: refusing to run: " << why << "; --unverified runs it anyway\n";
          say("not run: " + why);
          return finish(kExitNotRun, "REFUSED");
        }
        flagged = true;
        say("unverified: " + why);
      }
  }
  driver::LaunchLine ll = driver::findLaunchLine(ra.file);
  std::vector<std::string> blockText = ra.blockSet ? ra.block : ll.block, gridText = ra.gridSet ? ra.grid : ll.grid;
  for (int d = 0; d < 3; ++d)
    for (auto [texts, dest] : {std::pair{&blockText, &req.block}, std::pair{&gridText, &req.grid}}) {
      std::string err;
      if (static_cast<size_t>(d) < texts->size()) {
        (*dest)[d] = ir::parseCExpr(k, (*texts)[d], err);
        if (!(*dest)[d])
          return runUsage("launch dimension '" + (*texts)[d] + "': " + err);
      } else if (!texts->empty()) {
        (*dest)[d] = ir::mkConstInt(1, ir::Type::i64());
      }
    }
  if (!ll.shared.empty()) {
    std::string err;
    req.shared = ir::parseCExpr(k, ll.shared, err);
    if (!req.shared)
      return runUsage("launch shared='" + ll.shared + "': " + err);
  }
  req.seed = ra.seed;
  req.repeats = ra.repeats;
  req.warmup = ra.warmup;
  req.maxChecked = ra.samples;
  return std::nullopt;
}

// 3. The backend: the GPU when there is one and nvcc, else the interpreter.
std::optional<int> RunSession::chooseBackend() {
  self = selfPath();
  nvcc = ra.nvcc == "none" ? "" : !ra.nvcc.empty() ? ra.nvcc : util::findOnPath("nvcc");
  nvccWhy = ra.nvcc == "none" ? "nvcc disabled (--nvcc none)" : "nvcc not found on PATH (--nvcc PATH)";
  backend = ra.backend;
  if (backend != "cpu") {
    dev = gpu::probeDevice(self);
    if (backend == "gpu" && (!dev.present || nvcc.empty())) {
      std::string why = !dev.present ? "no GPU: " + dev.why : nvccWhy;
      std::cerr << "ksynth: error: --backend gpu: " << why << "\n";
      say("not run on the GPU: " + why);
      out["not_run"] = why;
      return finish(kExitNotRun, "NOT RUN");
    }
    if (backend == "auto") {
      backend = dev.present && !nvcc.empty() ? "gpu" : "cpu";
      if (backend == "cpu")
        say("backend: cpu (the concrete interpreter): " + (!dev.present ? "no GPU: " + dev.why : nvccWhy));
    }
  }
  out["backend"] = backend;
  if (dev.present)
    out["device"] = dev.toJson();
  return std::nullopt;
}

// 4. Sizes: given, else defaults. Missing dims start at the largest value every one of them
// admits, then each is lowered while that makes the run more telling (more output elements,
// weighted by the sizes: conv2d's filter dims come down so its output is not 1x1).
std::optional<int> RunSession::chooseSizes() {
  const spec::Spec &sp = *spr.spec;
  const ir::Kernel &k = *kp;
  std::vector<double> defaults = backend == "gpu" ? std::vector<double>{1024, 256, 64, 16, 4, 2, 1}
                                                  : std::vector<double>{8, 4, 2, 1};
  std::string planErr, defaulted;
  auto tryPlan = [&](const std::map<std::string, double> &dflt, std::string &err) -> std::optional<gpu::Plan> {
    gpu::PlanRequest r2 = req;
    r2.values = ra.values;
    for (const auto &[n, v] : dflt)
      r2.values[n] = v;
    auto pl = gpu::makePlan(k, sp, binding, r2, err);
    if (pl && backend == "cpu" && pl->threads() > (1 << 18)) {
      err = std::to_string(pl->threads()) + " threads is too many for the interpreter (at most 262144)";
      pl.reset();
    }
    return pl;
  };
  auto score = [](const gpu::Plan &pl) {
    double outs = 0, dims = 1;
    for (const gpu::TensorPlan &t : pl.tensors)
      if (t.mode != spec::Mode::In)
        outs += static_cast<double>(t.elements);
    for (const auto &[n, v] : pl.dims)
      dims *= static_cast<double>(v);
    return outs * std::pow(dims, 0.25);
  };
  std::vector<std::string> missing;
  for (const spec::Dim &d : sp.dims)
    if (!ra.values.count(d.name)) {
      missing.push_back(d.name);
      defaulted += (defaulted.empty() ? "" : ", ") + d.name;
    }
  std::map<std::string, double> dflt;
  // On the GPU the spec's own sizes come first (a benchmark's shapes), where they fit.
  bool specSizes = false;
  if (backend == "gpu" && !sp.sizes.empty() && !missing.empty()) {
    for (const auto &[n, v] : sp.sizes)
      if (!ra.values.count(n))
        dflt[n] = static_cast<double>(v);
    std::string err;
    plan = tryPlan(dflt, err);
    specSizes = plan.has_value();
    if (!plan) {
      say("the spec's sizes do not fit here (" + err + "): smaller defaults used");
      dflt.clear();
    }
  }
  for (double dv : specSizes ? std::vector<double>{} : defaults) {
    for (const std::string &n : missing)
      dflt[n] = dv;
    std::string err;
    plan = tryPlan(dflt, err);
    if (plan)
      break;
    if (planErr.empty())
      planErr = err;
    if (missing.empty())
      break;
  }
  if (plan && !specSizes)
    for (bool better = true; better;) {
      better = false;
      for (const std::string &n : missing)
        for (double dv : defaults) {
          if (dv >= dflt[n])
            continue;
          auto d2 = dflt;
          d2[n] = dv;
          std::string err;
          auto p2 = tryPlan(d2, err);
          if (p2 && score(*p2) > score(*plan) * 1.0001) {
            dflt = d2;
            plan = p2;
            better = true;
          }
        }
    }
  if (!plan) {
    std::cerr << "ksynth: error: cannot run at these sizes: " << planErr << "\n";
    say("not run: " + planErr);
    out["not_run"] = planErr;
    return finish(kExitNotRun, "NOT RUN");
  }
  if (!plan->unchecked.empty()) {
    std::string list;
    for (const std::string &u : plan->unchecked)
      list += (list.empty() ? "" : "; ") + u;
    out["unchecked_assumptions"] = plan->unchecked;
    if (!flagged && !ra.unverified) {
      std::cerr << "ksynth: error: refusing to run: the proof assumes what the runner cannot check at these sizes ("
                << list << "); --unverified runs it anyway\n";
      say("not run: the proof rests on assumptions the runner cannot check: " + list);
      return finish(kExitNotRun, "REFUSED");
    }
    flagged = true;
    say("unverified: the proof rests on assumptions not checked here: " + list);
  }
  std::string scalarsText;
  for (const spec::Scalar &x : sp.scalars)
    scalarsText += ", " + x.name + (ra.values.count(x.name) ? "=" + fmt(ra.values.at(x.name), 6) : " drawn per run");
  say("sizes: " + dimsText(plan->dims) + scalarsText + (defaulted.empty() ? ""
                                             : " (" + defaulted + (specSizes ? ": the spec's sizes" : ": default") +
                                                   "; --size to choose)") +
      "; launch grid=" + tripleText(plan->grid) + " block=" + tripleText(plan->block) +
      (plan->sharedBytes ? " shared=" + std::to_string(plan->sharedBytes) : ""));
  out["plan"] = {{"dims", plan->dims}, {"scalars", plan->scalars}, {"grid", plan->grid}, {"block", plan->block},
                 {"shared_bytes", plan->sharedBytes}, {"seed", plan->seed}, {"warmup", plan->warmup},
                 {"repeats", plan->repeats}, {"flops", plan->flops}, {"flops_note", plan->flopsNote},
                 {"bytes", plan->bytes}};
  return std::nullopt;
}

// 5. Work directory and compilation.
std::optional<int> RunSession::compile() {
  const ir::Kernel &k = *kp;
  removeWork = ra.keep.empty();
  if (removeWork) {
    std::string tmpl = (fs::temp_directory_path() / "ksynth-run-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
      std::cerr << "ksynth: error: cannot create a temporary directory\n";
      return kExitInternal;
    }
    work = tmpl;
  } else {
    work = ra.keep;
    std::error_code ec;
    fs::create_directories(work, ec);
  }
  std::string arch = !ra.arch.empty() ? ra.arch : dev.present ? dev.arch() : "sm_80";
  if (nvcc.empty()) {
    say("compile: skipped: " + nvccWhy);
    out["compile"] = {{"ok", false}, {"note", nvccWhy}};
  } else {
    // nvcc reads the file as the verifier did: the same macros and folders.
    std::vector<std::string> pp;
    for (const std::string &d : ra.fe.defines)
      pp.push_back("-D" + d);
    for (const std::string &u : ra.fe.undefines)
      pp.push_back("-U" + u);
    for (const std::string &i : ra.fe.includeDirs)
      pp.push_back("-I" + i);
    for (const std::string &i : ra.fe.systemIncludeDirs)
      pp.insert(pp.end(), {"-isystem", i});
    gpu::CubinResult cr = gpu::compileCubin(nvcc, ra.file, k.name, arch, pp, (work / "kernel.cubin").string());
    plan->symbol = cr.symbol;
    out["compile"] = cr.toJson();
    if (!cr.ok) {
      std::cerr << cr.log;
      std::cerr << "ksynth: error: " << cr.note << " on '" << ra.file << "'\n";
      say("compile: " + cr.note);
      return finish(kExitWrong, "COMPILE FAILED");
    }
    auto fig = [](int v) { return v < 0 ? std::string("?") : std::to_string(v); };
    say("compile: nvcc -arch=" + arch + (ra.arch.empty() && !dev.present ? " (no GPU: default target; --arch to choose)" : "") +
        ": " + fig(cr.registers) + " registers, " + fig(cr.spillStores) + "/" + fig(cr.spillLoads) +
        " bytes spilled (stores/loads), " + fig(cr.sharedBytes) + " bytes static shared memory, " +
        fig(cr.stackBytes) + " bytes stack (" + fmt(cr.ms / 1000, 3) + " s)");
  }
  return std::nullopt;
}

// 6. Run and compare, and time on the GPU.
int RunSession::runAndCompare() {
  const spec::Spec &sp = *spr.spec;
  const ir::Kernel &k = *kp;
  gpu::RunReport rep;
  if (backend == "gpu") {
    say("device: " + dev.name + " (" + dev.arch() + ", " + std::to_string(dev.sms) + " SMs, peak " +
        fmt(dev.peakGBs(), 4) + " GB/s, " + fmt(dev.peakGflops(false), 4) + " GFLOP/s f32)");
    rep = gpu::runOnGpu(*plan, sp, self, work.string(), ra.timeoutS, ra.rtol);
  } else {
    rep = gpu::runOnCpu(*plan, k, sp, binding, ra.rtol);
  }
  out["run"] = rep.toJson();
  for (const gpu::TensorCheck &c : rep.checks) {
    const gpu::TensorPlan *tp = nullptr;
    for (const gpu::TensorPlan &t : plan->tensors)
      if (t.name == c.name)
        tp = &t;
    std::string what = tp && tp->all ? "every element"
                       : std::to_string(tp ? tp->samples : 0) + " sampled elements (other ones each run)";
    bool poisoned = tp && tp->mode == spec::Mode::Out;
    std::string l = "check " + c.name + ": " + what + " in " + std::to_string(rep.repeats) + " runs on fresh inputs" +
                    (poisoned ? ", poisoned before each" : " (inout: holds the run's input first)") + ": " +
                    std::to_string(c.compared) + " compared, " + std::to_string(c.mismatched) + " wrong";
    if (c.unwritten)
      l += " (" + std::to_string(c.unwritten) + " never written: still holding the poison)";
    l += "; max error " + fmt(c.maxAbs) + " absolute, " + fmt(c.maxRel) + " relative (rtol " + fmt(c.rtol) + ")";
    if (c.notFinite)
      l += "; " + std::to_string(c.notFinite) + " where the spec's value is not a finite number";
    if (c.compared == 0)
      l += "; nothing compared: no evidence either way";
    say(l);
    if (!c.firstMismatch.is_null()) {
      std::string idx;
      for (const auto &x : c.firstMismatch["index"])
        idx += "[" + std::to_string(x.get<int64_t>()) + "]";
      say("  first wrong element: " + c.name + idx + " in run " + std::to_string(c.firstMismatch["repeat"].get<int>()) +
          ": got " + c.firstMismatch["got"].dump() + ", the spec gives " +
          (c.firstMismatch["want"].is_number() ? fmt(c.firstMismatch["want"].get<double>(), 9) : c.firstMismatch["want"].dump()));
    }
  }
  if (!rep.failure.empty())
    say("run failed (" + rep.failure + "): " + rep.error);
  if (rep.timed) {
    double med = median(rep.timesMs);
    double lo = *std::min_element(rep.timesMs.begin(), rep.timesMs.end());
    double hi = *std::max_element(rep.timesMs.begin(), rep.timesMs.end());
    double gbs = plan->bytes / (med / 1e3) / 1e9, gflops = plan->flops / (med / 1e3) / 1e9;
    bool f64 = false;
    for (const gpu::TensorPlan &t : plan->tensors)
      f64 |= t.type == spec::ElemType::F64;
    double peakB = dev.peakGBs(), peakF = dev.peakGflops(f64);
    double spread = med > 0 ? 100 * (hi - lo) / med : 0;
    out["timing"] = {{"median_ms", med}, {"min_ms", lo}, {"max_ms", hi}, {"spread_pct", spread},
                     {"times_ms", rep.timesMs}, {"repeats", rep.timesMs.size()},
                     {"warmup", plan->warmup}, {"gb_per_s", gbs}, {"gflop_per_s", gflops},
                     {"peak_gb_per_s", peakB}, {"peak_gflop_per_s", peakF},
                     {"method", "CUDA events around each launch on the default stream, L2 flushed before each, "
                                "fresh inputs and poisoned outputs each repeat"}};
    say("time: median " + fmt(med, 4) + " ms over " + std::to_string(rep.timesMs.size()) + " runs (min " + fmt(lo, 4) +
        ", max " + fmt(hi, 4) + ", spread " + fmt(spread, 3) + "%; " + std::to_string(plan->warmup) +
        " warm-up; L2 flushed; CUDA events)");
    say("throughput: " + fmt(gbs, 4) + " GB/s" + (peakB > 0 ? " (" + fmt(100 * gbs / peakB, 3) + "% of peak)" : "") +
        ", " + fmt(gflops, 4) + " GFLOP/s" + (peakF > 0 ? " (" + fmt(100 * gflops / peakF, 3) + "% of " + (f64 ? "f64" : "f32") + " peak)" : "") +
        "; " + fmt(plan->bytes, 4) + " bytes moved at least, " + fmt(plan->flops, 4) + " operations (" + plan->flopsNote + ")");
  } else {
    say(rep.notTimed.empty() ? "not timed" : rep.notTimed);
  }
  if (!rep.ran)
    return finish(kExitWrong, rep.failure == "hang" ? "HUNG" : "FAILED");
  return finish(rep.agrees() ? kExitOk : kExitWrong, rep.agrees() ? "PASS" : "WRONG");
}

} // namespace

int runCommand(const std::vector<std::string> &args) {
  RunArgs ra;
  if (std::optional<int> code = parseRunArgs(args, ra))
    return *code;
  return RunSession(std::move(ra)).run();
}

} // namespace ksynth::cli
