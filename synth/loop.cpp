#include "synth/loop.h"

#include "synth/candidate.h"
#include "synth/compile.h"
#include "synth/prompt.h"
#include "verify/spec/check.h"
#include "verify/spec/parser.h"

#include "models/transcript.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

namespace ksynth::synth {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string readText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trimEnd(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

// Faster means a median time lower by more than this fraction, so that timing noise alone
// does not swap one proven kernel for another.
constexpr double kMinGain = 0.02;

std::string fmtMs(double ms) {
  std::ostringstream s;
  s << std::setprecision(4) << ms << " ms";
  return s.str();
}

// Why a run summary has no timing: "no GPU (...)", "not run (--no-run)", ...
std::string untimedWhy(const json &run) {
  if (!run.is_object())
    return "not run (--no-run)";
  std::string why = run.value("not_timed", std::string("no timing"));
  const std::string prefix = "not timed: ";
  return why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why;
}

// A model request and the wall time it took.
struct Asked {
  models::Reply reply;
  double ms = 0;
};

} // namespace

// The run: its directory, report and conversation. One object per runLoop call.
class Loop {
public:
  Loop(const LoopOptions &o, models::Client &client) : o_(o), client_(client), out_(o.out ? *o.out : std::cout) {}
  LoopResult run();

private:
  void say(const std::string &s, bool newline = true);
  void saveReport(const std::string &status);
  // Adds a reply's tokens to the totals and to `rec`; false when the run must stop because
  // the transcript cannot be written (res_ set).
  bool account(const Asked &a, json &rec);
  bool stopRequested() const { return o_.stop && o_.stop->load(); }
  void interrupted(const std::string &where);
  void promote(const Candidate &c);

  const LoopOptions &o_;
  models::Client &client_;
  std::ostream &out_;
  LoopResult res_;
  fs::path dir_;
  spec::ParseResult parsed_;
  CheckContext ctx_;
  json report_;
  models::Usage total_;
  bool usageKnown_ = false;
  double modelMs_ = 0, compileMs_ = 0, verifyMs_ = 0;
  Clock::time_point tRun_ = Clock::now();
  models::Conversation conv_;
  std::vector<Candidate> cands_; // every synthesis candidate, in round and sample order

  bool prepare();
  std::vector<std::future<Asked>> ask(const models::Conversation &conv, int k);
  // One synthesis round: the index in cands_ of the proven candidate kept, -1 when none
  // was proven, -2 when the run stops (res_ set).
  int synthRound(int r);
  std::optional<Candidate> takeSample(int r, int m, Asked a, json &rj);
  size_t bestOfRound(size_t first) const;
  void proven(const Candidate &c);
  void budgetExhausted();
  // The optimize rounds after `first` was proven and kept; false when interrupted (res_ set).
  bool optimize(const Candidate &first);
  std::string optimizeRequest(const std::string &outcome, const Candidate &kept, const json &keptRun) const;
  // Runs a proven variant and decides whether it replaces the kernel kept (`replace`); the
  // sentence the model is told.
  std::string judge(int j, const Candidate &v, const json &keptRun, json &rec, bool &replace);
  fs::path sampleDir(int r, int m) const {
    fs::path rd = dir_ / ("round-" + std::to_string(r));
    return o_.samples == 1 ? rd : rd / ("sample-" + std::to_string(m));
  }
};

void Loop::say(const std::string &s, bool newline) {
  if (!o_.progress)
    return;
  out_ << s;
  if (newline)
    out_ << "\n";
  out_.flush();
}

void Loop::saveReport(const std::string &status) {
  report_["status"] = status;
  report_["tokens"] = usageKnown_ ? json{{"input", total_.inputTokens},
                                         {"output", total_.outputTokens},
                                         {"cached_input", total_.cachedInputTokens},
                                         {"reasoning", total_.reasoningTokens}}
                                  : json(nullptr);
  double cost = models::costUsd(total_, o_.model);
  report_["cost_usd_estimate"] = usageKnown_ && cost > 0 ? json(cost) : json(nullptr);
  // model: the wall time spent waiting for replies (a round's parallel samples count once).
  report_["time_ms"] = {{"total", msSince(tRun_)}, {"model", modelMs_}, {"compile", compileMs_}, {"verify", verifyMs_}};
  writeText(dir_ / "report.json", report_.dump(2) + "\n");
}

bool Loop::prepare() {
  dir_ = o_.outDir;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    res_.exitCode = kExitUsage;
    res_.error = "cannot create the output directory '" + dir_.string() + "': " + ec.message();
    return false;
  }
  // A resumed run decides its kernel again: what an earlier invocation kept goes, so these
  // files are always this run's kept kernel's (or absent).
  for (const char *f : {"kernel.cu", "kernel-run.json", "proof"})
    fs::remove_all(dir_ / f, ec);
  // The spec: parsed and checked once (its errors are the user's, not the model's).
  parsed_ = spec::parseFile(o_.specPath);
  std::vector<spec::Diagnostic> errs = parsed_.errors;
  if (parsed_.spec) {
    spec::CheckResult c = spec::checkSpec(*parsed_.spec);
    errs.insert(errs.end(), c.errors.begin(), c.errors.end());
  }
  if (!errs.empty() || !parsed_.spec) {
    for (const spec::Diagnostic &d : errs)
      res_.error += spec::format(o_.specPath, d) + "\n";
    res_.error += "ksynth: error: spec '" + o_.specPath + "' is malformed";
    res_.exitCode = kExitMalformed;
    return false;
  }
  const spec::Spec &sp = *parsed_.spec;
  ctx_.spec = &sp;
  ctx_.specAbs = fs::absolute(o_.specPath).string();
  ctx_.nvcc = findNvcc(o_.nvcc);
  ctx_.verifyTimeoutS = o_.verifyTimeoutS;

  json run = o_.runInfo.is_object() ? o_.runInfo : json::object();
  run["spec"] = ctx_.specAbs;
  run["spec_name"] = sp.name;
  run["rounds"] = o_.rounds;
  run["samples"] = o_.samples;
  run["optimize"] = o_.optimize;
  run["prompt_version"] = promptVersion();
  run["nvcc"] = ctx_.nvcc ? json(*ctx_.nvcc) : json(nullptr);
  run["verify_timeout_s"] = o_.verifyTimeoutS;
  run["started"] = models::utcNow();
  writeText(dir_ / "run.json", run.dump(2) + "\n");

  report_ = {{"tool", "ksynth"},
             {"command", "prove"},
             {"spec", {{"file", ctx_.specAbs}, {"name", sp.name}}},
             {"provider", o_.providerText},
             {"prompt_version", promptVersion()},
             {"status", "running"},
             {"rounds_budget", o_.rounds},
             {"samples", o_.samples},
             {"rounds", json::array()}};
  saveReport("running");

  conv_.system = promptTemplate("system");
  conv_.turns.push_back(
      {models::Role::User, taskPrompt(sp, fs::path(o_.specPath).filename().string(), readText(o_.specPath))});
  return true;
}

// k requests at once, one thread each; with k > 1 each one's last user turn says which
// attempt it is (so the requests differ and a sampling server cannot merge them). The
// futures' destructors wait, so every request started is finished and recorded.
std::vector<std::future<Asked>> Loop::ask(const models::Conversation &conv, int k) {
  std::vector<std::future<Asked>> out;
  for (int m = 1; m <= k; ++m) {
    models::Conversation c = conv;
    if (k > 1)
      c.turns.back().text +=
          "\n\n" + trimEnd(fill(promptTemplate("sample"),
                                {{"sample", std::to_string(m)}, {"samples", std::to_string(k)}}));
    out.push_back(std::async(std::launch::async, [this, c = std::move(c), m] {
      auto t0 = Clock::now();
      Asked a;
      a.reply = client_.send(c, m - 1);
      a.ms = msSince(t0);
      return a;
    }));
  }
  return out;
}

bool Loop::account(const Asked &a, json &rec) {
  const models::Reply &reply = a.reply;
  rec["time_ms"]["model"] = a.ms;
  if (reply.usage.inputTokens || reply.usage.outputTokens) {
    usageKnown_ = true;
    total_.inputTokens += reply.usage.inputTokens;
    total_.outputTokens += reply.usage.outputTokens;
    total_.cachedInputTokens += reply.usage.cachedInputTokens;
    total_.reasoningTokens += reply.usage.reasoningTokens;
    rec["tokens"] = {{"input", reply.usage.inputTokens}, {"output", reply.usage.outputTokens}};
  }
  rec["replayed"] = reply.replayed;
  if (reply.transcriptError.empty())
    return true;
  res_.error = "the transcript cannot be written (" + reply.transcriptError +
               "); stopping, since the run could not be resumed or replayed";
  res_.exitCode = kExitInternal;
  rec["stage"] = "model";
  return false;
}

void Loop::interrupted(const std::string &where) {
  say("interrupted");
  saveReport("interrupted");
  res_.exitCode = kExitInterrupted;
  res_.error = "interrupted in " + where + "; continue with --resume " + dir_.string();
}

// The kept kernel, its proof bundle and its run, copied beside their places first and then
// renamed into them, so an interruption never pairs one kernel with another's proof.
void Loop::promote(const Candidate &c) {
  std::error_code ec;
  fs::path proofTmp = dir_ / "proof.tmp", kernelTmp = dir_ / "kernel.cu.tmp", runTmp = dir_ / "kernel-run.json.tmp";
  fs::remove_all(proofTmp, ec);
  fs::copy(c.dir / "proof", proofTmp, fs::copy_options::recursive, ec);
  writeText(proofTmp / "report.json", c.check.report.dump(2) + "\n");
  fs::copy_file(c.dir / "candidate.cu", kernelTmp, fs::copy_options::overwrite_existing, ec);
  bool hasRun = fs::exists(c.dir / "kernel-run.json");
  if (hasRun)
    fs::copy_file(c.dir / "kernel-run.json", runTmp, fs::copy_options::overwrite_existing, ec);
  fs::remove_all(dir_ / "proof", ec);
  fs::rename(proofTmp, dir_ / "proof", ec);
  fs::rename(kernelTmp, dir_ / "kernel.cu", ec);
  if (hasRun)
    fs::rename(runTmp, dir_ / "kernel-run.json", ec);
  else
    fs::remove(dir_ / "kernel-run.json", ec);
  report_["kernel"] = fs::absolute(dir_ / "kernel.cu").string();
  report_["proof"] = fs::absolute(dir_ / "proof").string();
  report_["kernel_from"] = fs::relative(c.dir, dir_).string();
}

// Sample m's reply checked (or its model error recorded); nullopt when the run stops.
std::optional<Candidate> Loop::takeSample(int r, int m, Asked a, json &rj) {
  const int k = o_.samples;
  json rec = k == 1 ? json{{"round", r}} : json{{"sample", m}};
  if (!account(a, rec)) {
    say("");
    (k == 1 ? rj : rj["samples"].emplace_back()) = rec;
    return std::nullopt;
  }
  std::string label = k == 1 ? std::to_string(r) : std::to_string(r) + "." + std::to_string(m);
  std::string prefix = k == 1 ? "" : "round " + std::to_string(r) + "  candidate " + label + "  ";
  Candidate c;
  const models::Reply &reply = a.reply;
  if (!reply.ok() && reply.error.kind != models::ErrorKind::TokenLimit) {
    c.stage = "model";
    c.label = label;
    rec["error"] = {{"kind", models::errorKindName(reply.error.kind)}, {"message", reply.error.message}};
    say(prefix + "model error" + (k == 1 ? "" : ": " + reply.error.message));
  } else {
    c = checkReply(ctx_, reply, sampleDir(r, m), label);
    compileMs_ += c.compileMs;
    verifyMs_ += c.verifyMs;
    say(prefix + c.progress);
    for (auto &[key, v] : c.record.items())
      if (key == "time_ms")
        rec["time_ms"].update(v);
      else
        rec[key] = v;
    if (!c.proven())
      writeText(c.dir / "feedback.txt", c.feedback());
  }
  c.round = r;
  c.sample = m;
  rec["stage"] = c.stage;
  c.record = rec;
  if (k > 1)
    rj["samples"].push_back(rec);
  else
    rj = rec;
  return c;
}

// The round's candidate to keep or continue from: the lowest-numbered proven sample, else
// the best ranked, the lowest sample among equals.
size_t Loop::bestOfRound(size_t first) const {
  for (size_t i = first; i < cands_.size(); ++i)
    if (cands_[i].proven())
      return i;
  size_t best = first;
  for (size_t i = first + 1; i < cands_.size(); ++i)
    if (cands_[i].rank() > cands_[best].rank())
      best = i;
  return best;
}

int Loop::synthRound(int r) {
  const int k = o_.samples;
  json rj = {{"round", r}};
  auto t0 = Clock::now();
  auto stopHere = [&](const std::string &status) {
    rj["time_ms"]["round"] = msSince(t0);
    report_["rounds"].push_back(rj);
    if (status == "interrupted")
      interrupted("round " + std::to_string(r));
    else
      saveReport(status);
    res_.report = report_;
    return -2;
  };
  if (k == 1)
    say("round " + std::to_string(r) + "  candidate " + std::to_string(r) + "  ", false);
  else
    say("round " + std::to_string(r) + "  " + std::to_string(k) + " samples requested in parallel");
  if (stopRequested()) {
    rj["stage"] = "interrupted";
    return stopHere("interrupted");
  }
  std::vector<std::future<Asked>> asked = ask(conv_, k);
  size_t first = cands_.size();
  double waited = 0;
  std::string modelErrors;
  for (int m = 1; m <= k; ++m) {
    Asked a = asked[m - 1].get();
    waited = std::max(waited, a.ms);
    if (stopRequested()) { // the reply is in the transcript: --resume will not ask for it again
      std::error_code ec;
      fs::create_directories(sampleDir(r, m), ec);
      writeText(sampleDir(r, m) / "reply.md", a.reply.text);
      if (k == 1)
        rj["time_ms"]["model"] = a.ms;
      rj["stage"] = "interrupted";
      return stopHere("interrupted");
    }
    std::optional<Candidate> c = takeSample(r, m, std::move(a), rj);
    if (!c)
      return stopHere("transcript-error");
    if (c->stage == "model")
      modelErrors += (modelErrors.empty() ? "" : "; ") + c->record["error"].value("message", std::string());
    cands_.push_back(std::move(*c));
  }
  modelMs_ += waited;
  size_t best = bestOfRound(first);
  const Candidate &b = cands_[best];
  if (k > 1) {
    rj["best_sample"] = b.sample;
    for (const char *f : {"stage", "verdict", "obligations"})
      if (b.record.contains(f))
        rj[f] = b.record[f];
    rj["time_ms"]["model"] = waited;
  }
  if (b.stage == "model") { // every sample of the round failed
    res_.error = "round " + std::to_string(r) + ": " + modelErrors;
    res_.exitCode = kExitModel;
    report_["error"] = res_.error;
    return stopHere("model-error");
  }
  rj["time_ms"]["round"] = msSince(t0);
  if (b.proven()) {
    if (k > 1)
      say("round " + std::to_string(r) + "  candidate " + b.label + " is proven (the lowest-numbered proven sample)");
    report_["rounds"].push_back(rj);
    return static_cast<int>(best);
  }
  std::string feedback = b.feedback();
  writeText(dir_ / ("round-" + std::to_string(r)) / "feedback.txt", feedback);
  if (k > 1)
    say("round " + std::to_string(r) + "  best: candidate " + b.label + " (" +
        (b.checked ? b.check.verdict() + ", " + std::to_string(b.check.proven()) + "/" +
                         std::to_string(b.check.total()) + " obligations proven"
                   : b.stage + " failed") +
        "); every sample of the next round continues from it");
  report_["rounds"].push_back(rj);
  saveReport("running");
  conv_.turns.push_back({models::Role::Assistant, b.reply});
  conv_.turns.push_back({models::Role::User, feedback});
  return -1;
}

void Loop::proven(const Candidate &c) {
  promote(c);
  report_["verdict"] = "proven";
  report_["proven_round"] = c.round;
  if (o_.samples > 1)
    report_["proven_sample"] = c.sample;
  if (!o_.runWith.empty()) {
    std::string line;
    report_["run"] = runKernel(o_.runWith, dir_ / "kernel.cu", o_.specPath, o_.nvcc, dir_ / "kernel-run.json", line);
    say(line);
  }
  conv_.turns.push_back({models::Role::Assistant, c.reply});
  if (o_.optimize > 0 && !optimize(c))
    return; // interrupted: res_ set
  saveReport("proven");
  say("proven kernel: " + (dir_ / "kernel.cu").string() + "   proof: " + (dir_ / "proof").string() + "/");
  res_.exitCode = kExitProven;
  res_.report = report_;
}

void Loop::budgetExhausted() {
  // The best candidate of the run; among equals the latest round, within it the lowest sample.
  const Candidate *best = nullptr;
  for (const Candidate &c : cands_)
    if (!best || c.rank() > best->rank() || (c.rank() == best->rank() && c.round > best->round))
      best = &c;
  std::string status = "budget-exhausted";
  res_.exitCode = kExitBudget;
  if (best && best->checked && (best->check.verdict() == "unknown" || best->check.verdict() == "bounded"))
    status = "inconclusive", res_.exitCode = kExitInconclusive;
  report_["verdict"] = status == "inconclusive" ? best->check.verdict() : "not-proven";
  std::string rounds = std::to_string(o_.rounds);
  if (best && best->checked) {
    std::string where = "round " + std::to_string(best->round) + (o_.samples > 1 ? " sample " + std::to_string(best->sample) : "");
    std::string file = fs::absolute(best->dir / "candidate.cu").string();
    report_["best"] = {{"round", best->round},     {"candidate", file},
                       {"verdict", best->check.verdict()}, {"proven", best->check.proven()},
                       {"total", best->check.total()},     {"failing", failingObligations(best->check)}};
    if (o_.samples > 1)
      report_["best"]["sample"] = best->sample;
    say("no proven kernel after " + rounds + " round(s); best candidate: " + where + " (" + best->check.verdict() +
        ", " + std::to_string(best->check.proven()) + "/" + std::to_string(best->check.total()) +
        " obligations proven): " + (best->dir / "candidate.cu").string());
    for (const std::string &f : failingObligations(best->check))
      say("  " + f);
  } else {
    say("no proven kernel after " + rounds + " round(s); no candidate could be checked");
  }
  saveReport(status);
  res_.report = report_;
}

std::string Loop::optimizeRequest(const std::string &outcome, const Candidate &kept, const json &keptRun) const {
  std::string m;
  if (std::optional<double> t = timedMs(keptRun)) {
    m = "Measured on the GPU: a median of " + fmtMs(*t) + " at the run's sizes.";
  } else {
    m = "It was not timed (" + untimedWhy(keptRun) + "), so a variant can be proven here but not compared with it.";
  }
  const json &cr = kept.record.contains("compile") ? kept.record["compile"] : json();
  if (cr.is_object() && cr.value("registers", json()).is_number()) {
    m += " ptxas reports " + std::to_string(cr["registers"].get<int>()) + " registers per thread";
    if (cr.value("shared_bytes", json()).is_number())
      m += " and " + std::to_string(cr["shared_bytes"].get<int>()) + " bytes of shared memory";
    m += " (resource use, not a speed measure).";
  }
  return fill(promptTemplate("optimize"), {{"outcome", outcome},
                                           {"kernel", kept.label},
                                           {"measurement", m},
                                           {"code", trimEnd(kept.code)},
                                           {"spec_name", ctx_.spec->name}});
}

std::string Loop::judge(int j, const Candidate &v, const json &keptRun, json &rec, bool &replace) {
  replace = false;
  rec["compared"] = false;
  if (o_.runWith.empty()) {
    rec["not_timed"] = "not run (--no-run)";
    rec["decision"] = "proven, not compared (not run: --no-run); the kernel kept stays";
    return "It was not run (--no-run), so it was not timed or compared and does not replace the kernel.";
  }
  std::string line;
  json run = runKernel(o_.runWith, v.dir / "candidate.cu", o_.specPath, o_.nvcc, v.dir / "kernel-run.json", line);
  say("optimize " + std::to_string(j) + "  " + line);
  rec["run"] = run;
  std::string result = run.value("result", "?");
  if (result != "PASS") {
    rec["decision"] = "proven, but its run did not pass (" + result + "): not a replacement";
    return "Its run against the specification did not pass (" + result + "), so it does not replace the kernel.";
  }
  std::optional<double> vt = timedMs(run), kt = timedMs(keptRun);
  if (!vt || !kt) {
    std::string why = !vt ? untimedWhy(run) : "the kernel kept: " + untimedWhy(keptRun);
    rec["not_timed"] = why;
    rec["decision"] = "proven, not compared (" + why + "); the kernel kept stays";
    return "It was not timed (" + why + "), so it cannot be compared with the kernel and does not replace it.";
  }
  rec["compared"] = true;
  rec["median_ms"] = *vt;
  rec["kept_median_ms"] = *kt;
  replace = *vt < *kt * (1 - kMinGain);
  rec["decision"] = replace ? "faster: replaces the kernel kept" : "not faster: the kernel kept stays";
  return "Measured on the GPU: a median of " + fmtMs(*vt) + " against " + fmtMs(*kt) + " for the kernel, so it " +
         (replace ? "replaces the kernel." : "is not faster by more than 2% and does not replace the kernel.");
}

bool Loop::optimize(const Candidate &first) {
  Candidate kept = first;
  kept.label = "candidate " + first.label;
  json keptRun = report_.value("run", json());
  std::string firstName = fs::relative(first.dir, dir_).string();
  json opt = {{"rounds_budget", o_.optimize}, {"first_proven", firstName}, {"rounds", json::array()}};
  std::vector<std::string> notCompared;
  std::string outcome;
  if (!timedMs(keptRun))
    say("optimize: the proven kernel was not timed (" + untimedWhy(keptRun) +
        "): variants can be proven but not compared, so the first proven kernel stays");
  auto finish = [&] {
    opt["kept"] = fs::relative(kept.dir, dir_).string();
    opt["replaced"] = opt["kept"] != firstName;
    opt["proven_not_compared"] = notCompared;
    if (!notCompared.empty())
      opt["note"] = "proven variants not compared (no timing): the kernel kept is " + opt["kept"].get<std::string>() +
                    "; ptxas figures are not a speed measure";
    report_["optimize"] = opt;
  };
  for (int j = 1; j <= o_.optimize; ++j) {
    std::string js = std::to_string(j);
    if (stopRequested()) {
      finish();
      interrupted("optimize round " + js);
      res_.report = report_;
      return false;
    }
    conv_.turns.push_back({models::Role::User, optimizeRequest(outcome, kept, keptRun)});
    say("optimize " + js + "  variant " + js + "  ", false);
    Asked a = ask(conv_, 1)[0].get();
    modelMs_ += a.ms;
    json rec = {{"round", j}};
    auto stopNow = [&](const std::string &stage) {
      rec["stage"] = stage;
      opt["rounds"].push_back(rec);
      finish();
      interrupted("optimize round " + js);
      res_.report = report_;
      return false;
    };
    if (stopRequested()) { // the reply is in the transcript: --resume will not ask for it again
      std::error_code ec;
      fs::create_directories(dir_ / ("optimize-" + js), ec);
      writeText(dir_ / ("optimize-" + js) / "reply.md", a.reply.text);
      return stopNow("interrupted");
    }
    // A proven kernel is kept whatever happens here: a failed request ends the optimizing.
    if (!account(a, rec) || (!a.reply.ok() && a.reply.error.kind != models::ErrorKind::TokenLimit)) {
      std::string why = a.reply.transcriptError.empty() ? a.reply.error.message : res_.error;
      say("model error");
      say("optimize stopped: " + why);
      rec["stage"] = "model";
      rec["error"] = why;
      opt["stopped"] = why;
      opt["rounds"].push_back(rec);
      res_.error.clear();
      break;
    }
    Candidate v = checkReply(ctx_, a.reply, dir_ / ("optimize-" + js), "variant " + js);
    compileMs_ += v.compileMs;
    verifyMs_ += v.verifyMs;
    say(v.progress);
    for (auto &[key, val] : v.record.items())
      if (key == "time_ms")
        rec["time_ms"].update(val);
      else
        rec[key] = val;
    rec["stage"] = v.stage;
    rec["proven"] = v.proven();
    rec["replaced"] = false;
    conv_.turns.push_back({models::Role::Assistant, v.reply});
    if (!v.proven()) {
      outcome = v.problems.empty()
                    ? fill(promptTemplate("optimize_rejected"),
                           {{"candidate", js}, {"details", v.details}, {"obligations", v.obligations}})
                    : fill(promptTemplate("optimize_unchecked"), {{"candidate", js}, {"problems", v.problems}});
      rec["decision"] = "not proven: the kernel kept stays";
      say("optimize " + js + "  not proven: " + kept.label + " stays");
    } else {
      if (stopRequested())
        return stopNow("interrupted before the variant was run");
      bool replace = false;
      std::string comparison = judge(j, v, keptRun, rec, replace);
      if (stopRequested() && !replace) // Ctrl-C reached the run too: its failure says nothing
        return stopNow("interrupted while the variant ran");
      outcome = fill(promptTemplate("optimize_proven"), {{"candidate", js}, {"comparison", comparison}});
      if (!rec.value("compared", false) && rec.value("run", json::object()).value("result", "PASS") == "PASS")
        notCompared.push_back("optimize-" + js);
      if (replace) {
        rec["replaced"] = true;
        v.round = j;
        promote(v);
        keptRun = rec["run"];
        report_["run"] = keptRun;
        kept = v;
      }
      say("optimize " + js + "  " + rec.value("decision", std::string()));
    }
    opt["rounds"].push_back(rec);
    report_["optimize"] = opt;
    saveReport("optimizing");
  }
  finish();
  std::string keptName = opt["kept"].get<std::string>();
  if (!notCompared.empty()) {
    std::string list;
    for (const std::string &n : notCompared)
      list += (list.empty() ? "" : ", ") + n;
    say("optimize: " + std::to_string(notCompared.size()) + " variant(s) proven but not compared (no timing): " + list +
        "; kept " + keptName);
  } else {
    say("optimize: kept " + keptName + (opt["replaced"].get<bool>() ? " (measured faster)" : ""));
  }
  return true;
}

LoopResult Loop::run() {
  if (!prepare())
    return res_;
  for (int r = 1; r <= o_.rounds; ++r) {
    int kept = synthRound(r);
    if (kept == -2)
      return res_;
    if (kept >= 0) {
      proven(cands_[kept]);
      return res_;
    }
  }
  budgetExhausted();
  return res_;
}

LoopResult runLoop(const LoopOptions &o, models::Client &client) {
  Loop loop(o, client);
  return loop.run();
}

} // namespace ksynth::synth
