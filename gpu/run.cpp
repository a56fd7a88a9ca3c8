#include "gpu/run.h"

#include "util/process.h"
#include "gpu/values.h"
#include "verify/equiv/concrete.h"
#include "verify/interp/interp.h"
#include "verify/spec/eval.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace ksynth::gpu {

namespace fs = std::filesystem;

double defaultRtol(spec::ElemType t) {
  switch (t) {
  case spec::ElemType::F64: return 1e-9;
  case spec::ElemType::F32: return 1e-4;
  case spec::ElemType::F16: return 1e-2;
  case spec::ElemType::BF16: return 2e-2;
  default: return 0;
  }
}

bool RunReport::agrees() const {
  if (!ran || checks.empty())
    return false;
  for (const TensorCheck &c : checks)
    if (c.mismatched > 0 || c.compared == 0) // nothing compared is no evidence
      return false;
  return true;
}

nlohmann::json RunReport::toJson() const {
  nlohmann::json cs = nlohmann::json::array();
  for (const TensorCheck &c : checks) {
    nlohmann::json j = {{"tensor", c.name},         {"type", spec::elemTypeName(c.type)},
                        {"rtol", c.rtol},           {"compared", c.compared},
                        {"mismatched", c.mismatched}, {"unwritten", c.unwritten},
                        {"not_finite", c.notFinite}, {"max_abs_error", c.maxAbs},
                        {"max_rel_error", c.maxRel}};
    if (!c.firstMismatch.is_null())
      j["first_mismatch"] = c.firstMismatch;
    cs.push_back(j);
  }
  nlohmann::json j = {{"backend", backend}, {"ran", ran},    {"repeats", repeats}, {"checks", cs},
                      {"timed", timed},     {"agrees", agrees()}, {"ms", ms}};
  if (!failure.empty())
    j["failure"] = {{"kind", failure}, {"error", error}};
  if (!timed)
    j["not_timed"] = notTimed;
  if (!timesMs.empty())
    j["times_ms"] = timesMs;
  if (!function.is_null())
    j["function"] = function;
  return j;
}

namespace {

std::vector<TensorCheck> freshChecks(const Plan &p, double rtolOverride) {
  std::vector<TensorCheck> cs;
  for (const TensorPlan &tp : p.tensors)
    if (tp.mode != spec::Mode::In) {
      TensorCheck c;
      c.name = tp.name;
      c.type = tp.type;
      // Integers are compared exactly whatever --rtol says.
      c.rtol = spec::isFloat(tp.type) && rtolOverride >= 0 ? rtolOverride : defaultRtol(tp.type);
      cs.push_back(c);
    }
  return cs;
}

} // namespace

bool compareRepeat(const Plan &p, const spec::Spec &s, int repeat, const std::vector<std::vector<double>> &got,
                   double rtolOverride, std::vector<TensorCheck> &checks, std::string &error) {
  if (checks.empty())
    checks = freshChecks(p, rtolOverride);
  spec::Inputs in = inputsOf(p, s, repeat);
  size_t ci = 0;
  for (size_t t = 0; t < p.tensors.size(); ++t) {
    const TensorPlan &tp = p.tensors[t];
    if (tp.mode == spec::Mode::In)
      continue;
    TensorCheck &c = checks[ci++];
    std::vector<int64_t> elems = comparedElements(p, t, repeat);
    if (got[t].size() != elems.size()) {
      error = "the runner returned " + std::to_string(got[t].size()) + " values of " + tp.name + " for " +
              std::to_string(elems.size()) + " elements";
      return false;
    }
    std::string why;
    std::vector<std::optional<double>> want = spec::evaluateElements(s, in, tp.name, elems, why);
    double sq = 0;
    int64_t finite = 0;
    for (const auto &w : want)
      if (w && std::isfinite(*w)) {
        sq += *w * *w;
        ++finite;
      }
    double scale = finite ? std::sqrt(sq / static_cast<double>(finite)) : 0;
    for (size_t e = 0; e < elems.size(); ++e) {
      double g = got[t][e];
      if (!want[e]) { // the spec has no value here (division by zero, ...)
        ++c.notFinite;
        continue;
      }
      double w = *want[e];
      ++c.compared;
      bool ok;
      double err = 0;
      if (!std::isfinite(w)) { // NaN must be NaN, an infinity the same infinity
        ok = std::isnan(w) ? std::isnan(g) : g == w;
        ++c.notFinite;
      } else {
        err = std::isnan(g) ? std::numeric_limits<double>::infinity() : std::fabs(g - w);
        ok = err <= c.rtol * std::fabs(w) + c.rtol * scale;
        if (std::isfinite(err)) {
          c.maxAbs = std::max(c.maxAbs, err);
          if (std::fabs(w) > 1e-3 * scale && w != 0)
            c.maxRel = std::max(c.maxRel, err / std::fabs(w));
        }
      }
      if (ok)
        continue;
      ++c.mismatched;
      double poison = poisonValue(tp.type, repeat);
      if ((std::isnan(g) && std::isnan(poison)) || g == poison)
        ++c.unwritten;
      auto num = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(std::isnan(x) ? "NaN" : x > 0 ? "inf" : "-inf"); };
      if (c.firstMismatch.is_null())
        c.firstMismatch = {{"repeat", repeat}, {"index", equiv::unflatten(elems[e], tp.shape)}, {"got", num(g)}, {"want", num(w)}};
    }
  }
  return true;
}

namespace {

// One repeat's outputs into the report; false (the report says why) when the reference fails.
bool foldRepeat(RunReport &rep, const Plan &p, const spec::Spec &s, int r, const std::vector<std::vector<double>> &got,
                double rtolOverride) {
  std::string err;
  if (!compareRepeat(p, s, r, got, rtolOverride, rep.checks, err)) {
    rep.failure = "reference";
    rep.error = err;
    return false;
  }
  ++rep.repeats;
  return true;
}

} // namespace

RunReport runOnCpu(const Plan &p, const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                   double rtolOverride) {
  auto t0 = std::chrono::steady_clock::now();
  RunReport rep;
  rep.backend = "cpu";
  rep.notTimed = "not timed: no GPU (the concrete interpreter ran the kernel)";
  rep.checks = freshChecks(p, rtolOverride);
  std::array<ir::ExprPtr, 3> block, grid;
  for (int d = 0; d < 3; ++d) {
    block[d] = ir::mkConstInt(p.block[d], ir::Type::i64());
    grid[d] = ir::mkConstInt(p.grid[d], ir::Type::i64());
  }
  std::map<int, int> arrayOfTensor;
  for (const auto &[a, t] : b.tensorOfArray)
    arrayOfTensor[t] = a;
  for (int r = 0; r < p.warmup + p.repeats; ++r) {
    spec::Inputs in = inputsOf(p, s, r);
    equiv::LaunchEnv le = equiv::launchEnv(k, s, b, in, block, grid);
    if (!le.ok) {
      rep.failure = "setup";
      rep.error = le.why;
      return rep;
    }
    interp::Env &env = le.env;
    env.wideFloats = false; // the kernel's own precision
    env.garbageSet = true; // unwritten outputs and shared memory hold the poison (values.h)
    env.garbage = poisonValue(spec::ElemType::F32, r);
    interp::GridRun run = interp::runGrid(k, env);
    if (!run.completed) {
      bool limit = run.error.find("step limit") != std::string::npos;
      rep.failure = limit ? "hang" : "fault";
      rep.error = "repeat " + std::to_string(r) + ": " +
                  (limit ? "the kernel did not finish within the interpreter's step limit (" +
                               std::to_string(env.maxGridSteps) + " statements over all threads)"
                         : run.error);
      return rep;
    }
    if (!run.faults.empty()) {
      const interp::Fault &f = run.faults.front();
      rep.failure = "fault";
      rep.error = "repeat " + std::to_string(r) + ": " + interp::eventKindName(f.event.kind) + " by block (" +
                  std::to_string(f.thread.block.x) + "," + std::to_string(f.thread.block.y) + "," +
                  std::to_string(f.thread.block.z) + ") thread (" + std::to_string(f.thread.thread.x) + "," +
                  std::to_string(f.thread.thread.y) + "," + std::to_string(f.thread.thread.z) + ")";
      return rep;
    }
    std::vector<std::vector<double>> got(p.tensors.size());
    for (size_t t = 0; t < p.tensors.size(); ++t) {
      const TensorPlan &tp = p.tensors[t];
      if (tp.mode == spec::Mode::In)
        continue;
      int a = arrayOfTensor.at(static_cast<int>(t));
      for (int64_t e : comparedElements(p, t, r)) {
        auto it = run.memory.find({a, e});
        const interp::Value *v = nullptr;
        if (it != run.memory.end())
          v = &it->second;
        else if (auto init = env.memory.find({a, e}); tp.mode == spec::Mode::InOut && init != env.memory.end())
          v = &init->second;
        double x = poisonValue(tp.type, r);
        if (v)
          x = v->kind == interp::Value::Kind::Float ? v->f : static_cast<double>(v->i);
        // What the device would hold: the value in the tensor's element type.
        unsigned char buf[8];
        storeElem(tp.type, x, buf);
        got[t].push_back(std::isnan(x) ? x : loadElem(tp.type, buf));
      }
    }
    if (!foldRepeat(rep, p, s, r, got, rtolOverride))
      return rep;
  }
  rep.ran = true;
  rep.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

RunReport runOnGpu(const Plan &p, const spec::Spec &s, const std::string &self, const std::string &dir,
                   double timeoutS, double rtolOverride) {
  auto t0 = std::chrono::steady_clock::now();
  RunReport rep;
  rep.backend = "gpu";
  rep.checks = freshChecks(p, rtolOverride);
  {
    std::ofstream out(fs::path(dir) / "plan.json");
    out << p.toJson().dump() << "\n";
  }
  fs::remove(fs::path(dir) / "result.json");
  util::ProcessResult pr = util::runProcess({self, "__gpu-run", dir}, timeoutS);
  nlohmann::json res;
  {
    std::ifstream in(fs::path(dir) / "result.json");
    if (in) {
      try {
        res = nlohmann::json::parse(in);
      } catch (...) {
      }
    }
  }
  std::string tail = pr.output.size() > 2000 ? pr.output.substr(pr.output.size() - 2000) : pr.output;
  if (pr.timedOut) {
    rep.failure = "hang";
    rep.error = "the GPU runner did not finish within " + std::to_string(static_cast<int>(timeoutS)) +
                " s and was killed after " + std::to_string(res.is_null() ? 0 : res.value("repeats_done", 0)) +
                " repeats (a kernel that never ends, or --timeout too short for these sizes and repeats)";
  } else if (res.is_null()) {
    rep.failure = "setup";
    rep.error = "the GPU runner " + pr.how(timeoutS) + " without a result" + (tail.empty() ? "" : ": " + tail);
  } else if (!res.value("ok", false) && res.contains("failure")) {
    rep.failure = res.value("failure", "setup");
    rep.error = res.value("error", "the GPU runner failed");
  } else if (!res.value("ok", false)) { // it died between repeats (a crash in the driver, a signal)
    rep.failure = "fault";
    rep.error = "the GPU runner " + pr.how(timeoutS) + " in repeat " + std::to_string(res.value("repeats_done", 0)) +
                (tail.empty() ? "" : ": " + tail);
  }
  if (res.contains("function"))
    rep.function = res["function"];
  int done = res.is_null() ? 0 : res.value("repeats_done", 0);
  // Compare every repeat that finished, even when a later one failed.
  for (int r = 0; r < done; ++r) {
    std::vector<std::vector<double>> got(p.tensors.size());
    for (size_t t = 0; t < p.tensors.size(); ++t) {
      if (p.tensors[t].mode == spec::Mode::In)
        continue;
      fs::path f = fs::path(dir) / ("r" + std::to_string(r) + "_t" + std::to_string(t) + ".bin");
      std::ifstream in(f, std::ios::binary);
      size_t n = comparedElements(p, t, r).size();
      got[t].resize(n);
      in.read(reinterpret_cast<char *>(got[t].data()), static_cast<std::streamsize>(n * sizeof(double)));
      if (static_cast<size_t>(in.gcount()) != n * sizeof(double)) {
        rep.failure = "setup";
        rep.error = "the GPU runner's output " + f.filename().string() + " is short";
        return rep;
      }
      fs::remove(f);
    }
    if (!foldRepeat(rep, p, s, r, got, rtolOverride))
      return rep;
  }
  if (rep.failure.empty() && done == p.warmup + p.repeats) {
    rep.ran = true;
    std::vector<double> all = res.value("times_ms", std::vector<double>{});
    if (static_cast<int>(all.size()) == p.warmup + p.repeats) {
      rep.timesMs.assign(all.begin() + p.warmup, all.end());
      rep.timed = true;
    }
  }
  if (!rep.timed)
    rep.notTimed = "not timed: the run failed";
  rep.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

} // namespace ksynth::gpu
