#include "synth/loop.h"

#include "synth/compile.h"
#include "gpu/process.h"
#include "synth/extract.h"
#include "synth/feedback.h"
#include "synth/prompt.h"
#include "tools/cli.h"
#include "verify/spec/check.h"
#include "verify/spec/parser.h"

#include "models/transcript.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <iostream>
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

// Written to a temporary name and renamed, so a reader (or a kill) never sees half a file.
bool writeText(const fs::path &path, const std::string &text) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      return false;
    out << text;
    if (!out.flush())
      return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  return !ec;
}

std::string seconds(double ms) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << ms / 1000 << " s";
  return s.str();
}

// Replaces every occurrence of `from` in `s`.
std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  if (from.empty())
    return s;
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
    s.replace(p, from.size(), to);
  return s;
}

struct Candidate {
  int round = 0;
  std::string stage; // where it stopped: reply, extract, compile, verify
  CheckOutcome check;
  bool checked = false;
  // Ranking for "best": proven > bounded > unknown only > refuted; then obligations proven.
  int rank() const {
    if (!checked)
      return -1;
    std::string v = check.verdict();
    int base = v == "proven"    ? 4000000
               : v == "bounded" ? 3000000
               : v == "unknown" ? 2000000
               : v == "refuted" ? 1000000
                                : 0;
    return base + check.proven();
  }
};

} // namespace

LoopResult runLoop(const LoopOptions &o, models::Client &client) {
  std::ostream &out = o.out ? *o.out : std::cout;
  auto say = [&](const std::string &s, bool newline = true) {
    if (o.progress) {
      out << s;
      if (newline)
        out << "\n";
      out.flush();
    }
  };
  LoopResult res;
  auto tRun = Clock::now();
  fs::path dir = o.outDir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    res.exitCode = kExitUsage;
    res.error = "cannot create the output directory '" + dir.string() + "': " + ec.message();
    return res;
  }

  // The spec: parsed and checked once (its errors are the user's, not the model's).
  spec::ParseResult pr = spec::parseFile(o.specPath);
  std::vector<spec::Diagnostic> errs = pr.errors;
  if (pr.spec) {
    spec::CheckResult c = spec::checkSpec(*pr.spec);
    errs.insert(errs.end(), c.errors.begin(), c.errors.end());
  }
  if (!errs.empty() || !pr.spec) {
    for (const spec::Diagnostic &d : errs)
      res.error += spec::format(o.specPath, d) + "\n";
    res.error += "ksynth: error: spec '" + o.specPath + "' is malformed";
    res.exitCode = kExitMalformed;
    return res;
  }
  const spec::Spec &sp = *pr.spec;
  std::string specAbs = fs::absolute(o.specPath).string();
  std::string specText = readText(o.specPath);
  std::optional<std::string> nvcc = findNvcc(o.nvcc);

  json run = o.runInfo.is_object() ? o.runInfo : json::object();
  run["spec"] = specAbs;
  run["spec_name"] = sp.name;
  run["rounds"] = o.rounds;
  run["prompt_version"] = promptVersion();
  run["nvcc"] = nvcc ? json(*nvcc) : json(nullptr);
  run["verify_timeout_s"] = o.verifyTimeoutS;
  run["started"] = models::utcNow();
  writeText(dir / "run.json", run.dump(2) + "\n");

  json report = {{"tool", "ksynth"},
                 {"command", "prove"},
                 {"spec", {{"file", specAbs}, {"name", sp.name}}},
                 {"provider", o.providerText},
                 {"prompt_version", promptVersion()},
                 {"status", "running"},
                 {"rounds_budget", o.rounds},
                 {"rounds", json::array()}};
  models::Usage total;
  bool usageKnown = false;
  double modelMs = 0, compileMs = 0, verifyMs = 0;
  auto saveReport = [&](const std::string &status) {
    report["status"] = status;
    report["tokens"] = usageKnown ? json{{"input", total.inputTokens},
                                         {"output", total.outputTokens},
                                         {"cached_input", total.cachedInputTokens},
                                         {"reasoning", total.reasoningTokens}}
                                  : json(nullptr);
    double cost = models::costUsd(total, o.model);
    report["cost_usd_estimate"] = usageKnown && cost > 0 ? json(cost) : json(nullptr);
    report["time_ms"] = {{"total", msSince(tRun)}, {"model", modelMs}, {"compile", compileMs}, {"verify", verifyMs}};
    writeText(dir / "report.json", report.dump(2) + "\n");
  };
  saveReport("running");

  models::Conversation conv;
  conv.system = promptTemplate("system");
  conv.turns.push_back({models::Role::User, taskPrompt(sp, fs::path(o.specPath).filename().string(), specText)});

  std::vector<Candidate> cands;
  for (int r = 1; r <= o.rounds; ++r) {
    fs::path rd = dir / ("round-" + std::to_string(r));
    fs::create_directories(rd, ec);
    json rj = {{"round", r}};
    Candidate cand;
    cand.round = r;
    std::string prefix = "round " + std::to_string(r) + "  candidate " + std::to_string(r) + "  ";
    say(prefix, false);

    auto t0 = Clock::now();
    auto interrupted = [&]() {
      if (!o.stop || !o.stop->load())
        return false;
      say("interrupted");
      rj["stage"] = "interrupted";
      report["rounds"].push_back(rj);
      saveReport("interrupted");
      res.exitCode = kExitInterrupted;
      res.error = "interrupted in round " + std::to_string(r) + "; continue with --resume " + dir.string();
      res.report = report;
      return true;
    };
    if (interrupted())
      return res;
    models::Reply reply = client.send(conv, 0);
    double mMs = msSince(t0);
    modelMs += mMs;
    rj["time_ms"] = {{"model", mMs}};
    if (reply.usage.inputTokens || reply.usage.outputTokens) {
      usageKnown = true;
      total.inputTokens += reply.usage.inputTokens;
      total.outputTokens += reply.usage.outputTokens;
      total.cachedInputTokens += reply.usage.cachedInputTokens;
      total.reasoningTokens += reply.usage.reasoningTokens;
      rj["tokens"] = {{"input", reply.usage.inputTokens}, {"output", reply.usage.outputTokens}};
    }
    rj["replayed"] = reply.replayed;
    if (!reply.transcriptError.empty()) {
      say("");
      res.error = "the transcript cannot be written (" + reply.transcriptError + "); stopping, since the run could "
                  "not be resumed or replayed";
      rj["stage"] = "model";
      report["rounds"].push_back(rj);
      saveReport("transcript-error");
      res.exitCode = kExitInternal;
      res.report = report;
      return res;
    }
    bool cutOff = reply.error.kind == models::ErrorKind::TokenLimit;
    if (!reply.ok() && !cutOff) {
      say("model error");
      res.error = "round " + std::to_string(r) + ": " + reply.error.message;
      rj["stage"] = "model";
      rj["error"] = {{"kind", models::errorKindName(reply.error.kind)}, {"message", reply.error.message}};
      report["rounds"].push_back(rj);
      report["error"] = res.error;
      saveReport("model-error");
      res.exitCode = kExitModel;
      res.report = report;
      return res;
    }
    writeText(rd / "reply.md", reply.text);
    conv.turns.push_back({models::Role::Assistant, reply.text});
    if (interrupted()) // the reply is in the transcript: --resume will not ask for it again
      return res;

    std::string feedback;
    Extracted ex = extractCandidate(reply.text, sp.name);
    if (cutOff)
      ex.problems.insert(ex.problems.begin(), "The reply was cut off by the token limit (" + reply.error.message +
                                                  "); send a shorter reply: only the kernel.");
    ex.ok = ex.problems.empty();
    rj["extract"] = {{"ok", ex.ok}, {"problems", ex.problems}, {"notes", ex.notes}};
    if (!ex.ok) {
      std::string problems;
      for (const std::string &p : ex.problems)
        problems += "- " + p + "\n";
      while (!problems.empty() && problems.back() == '\n')
        problems.pop_back();
      feedback = fill(promptTemplate("extract_feedback"),
                      {{"candidate", std::to_string(r)}, {"problems", problems}, {"spec_name", sp.name}});
      say("no candidate  (" + ex.problems.front().substr(0, 120) + ")");
      cand.stage = "extract";
    } else {
      fs::path cu = rd / "candidate.cu";
      writeText(cu, ex.code);
      std::string cuAbs = fs::absolute(cu).string();
      std::string notes;
      for (const std::string &n : ex.notes)
        notes += "Note: " + n + ".\n";

      // Compile check.
      CompileResult cr;
      bool compiled = true;
      if (nvcc) {
        cr = compileCheck(*nvcc, cuAbs);
        compileMs += cr.ms;
        writeText(rd / "compile.txt", cr.output);
        rj["compile"] = {{"status", cr.status == CompileResult::Status::Ok       ? "ok"
                                    : cr.status == CompileResult::Status::Failed ? "failed"
                                                                                 : "skipped"},
                         {"registers", cr.registers >= 0 ? json(cr.registers) : json(nullptr)},
                         {"shared_bytes", cr.sharedBytes >= 0 ? json(cr.sharedBytes) : json(nullptr)},
                         {"note", cr.note}};
        rj["time_ms"]["compile"] = cr.ms;
        if (cr.status == CompileResult::Status::Failed) {
          compiled = false;
          say("compiled \u2717");
          std::string errors = cr.output;
          if (errors.size() > 4000)
            errors = errors.substr(0, 4000) + "\n...";
          feedback = fill(promptTemplate("feedback"),
                          {{"candidate", std::to_string(r)},
                           {"details", notes + "nvcc could not compile it:\n" + errors + (errors.empty() || errors.back() == '\n' ? "" : "\n")},
                           {"obligations", "  (none checked: the kernel does not compile)"}});
          cand.stage = "compile";
        } else {
          say(cr.status == CompileResult::Status::Ok ? "compiled \u2713  " : "compile skipped (" + cr.note + ")  ",
              false);
        }
      } else {
        rj["compile"] = {{"status", "skipped"}, {"note", "no nvcc on PATH"}};
        say("compile skipped (no nvcc)  ", false);
      }

      if (compiled) {
        std::ostringstream vout, verr;
        std::ostringstream tos;
        tos << o.verifyTimeoutS;
        std::vector<std::string> args = {cuAbs,      "--spec",    specAbs, "--json", "--timeout",
                                         tos.str(),  "--proof-dir", (rd / "proof").string()};
        auto v0 = Clock::now();
        try {
          cand.check.exitCode = cli::verifyCommand(args, vout, verr);
        } catch (const std::exception &e) {
          // Our bug, not the model's: recorded as a verifier error (exit 70), never as a verdict.
          cand.check.exitCode = kExitInternal;
          verr << "ksynth: internal error while verifying the candidate: " << e.what() << "\n";
          vout.str("");
        }
        double vMs = msSince(v0);
        verifyMs += vMs;
        rj["time_ms"]["verify"] = vMs;
        try {
          cand.check.report = json::parse(vout.str());
        } catch (const json::exception &) {
          cand.check.report = nullptr;
        }
        cand.check.errors = replaceAll(replaceAll(verr.str(), cuAbs, "candidate.cu"), specAbs, sp.name + ".smt");
        if (cand.check.report.is_object() && cand.check.report.contains("errors") &&
            cand.check.report["errors"].is_string())
          cand.check.report["errors"] =
              replaceAll(cand.check.report["errors"].get<std::string>(), cuAbs, "candidate.cu");
        cand.checked = true;
        cand.stage = "verify";
        writeText(rd / "report.json", (cand.check.report.is_null() ? json{{"exit_code", cand.check.exitCode}}
                                                                     : cand.check.report)
                                              .dump(2) +
                                          "\n");
        writeText(rd / "verify.txt", cand.check.errors);
        std::string verdict = cand.check.verdict();
        rj["verdict"] = verdict;
        rj["obligations"] = {{"proven", cand.check.proven()}, {"total", cand.check.total()}};
        rj["failing"] = failingObligations(cand.check);
        if (verdict == "proven") {
          say(progressSummary(cand.check) + " (" + seconds(vMs) + ")");
        } else {
          say(progressSummary(cand.check));
          feedback = fill(promptTemplate("feedback"), {{"candidate", std::to_string(r)},
                                                       {"details", notes + failureDetails(cand.check, ex.code)},
                                                       {"obligations", obligationTable(cand.check)}});
          while (!feedback.empty() && feedback.back() == '\n')
            feedback.pop_back();
        }
      }
    }
    rj["stage"] = cand.stage;
    rj["time_ms"]["round"] = msSince(t0);
    if (!feedback.empty())
      writeText(rd / "feedback.txt", feedback);
    report["rounds"].push_back(rj);
    cands.push_back(cand);

    if (cand.checked && cand.check.verdict() == "proven") {
      fs::copy_file(rd / "candidate.cu", dir / "kernel.cu", fs::copy_options::overwrite_existing, ec);
      fs::remove_all(dir / "proof", ec);
      fs::copy(rd / "proof", dir / "proof", fs::copy_options::recursive, ec);
      writeText(dir / "proof" / "report.json", cand.check.report.dump(2) + "\n");
      report["verdict"] = "proven";
      report["proven_round"] = r;
      report["kernel"] = fs::absolute(dir / "kernel.cu").string();
      report["proof"] = fs::absolute(dir / "proof").string();
      if (!o.runWith.empty()) {
        // Only a proven kernel runs: on fresh inputs against the spec, timed on a GPU.
        std::vector<std::string> args = {o.runWith, "run", (dir / "kernel.cu").string(), "--spec", o.specPath, "--json"};
        if (!o.nvcc.empty())
          args.insert(args.end(), {"--nvcc", o.nvcc});
        gpu::ProcessResult pr = gpu::runProcess(args, 900);
        size_t start = pr.output.find("{\n");
        nlohmann::json rj2;
        try {
          if (start != std::string::npos)
            rj2 = json::parse(pr.output.substr(start, pr.output.rfind("\n}") + 2 - start));
        } catch (...) {
        }
        if (rj2.is_object()) {
          writeText(dir / "kernel-run.json", rj2.dump(2) + "\n");
          std::string result = rj2.value("result", "?");
          json summary = {{"result", result}, {"backend", rj2.value("backend", "")}, {"file", fs::absolute(dir / "kernel-run.json").string()}};
          std::string line = "run: " + result + " on the " + (rj2.value("backend", "") == "gpu" ? "GPU" : "interpreter");
          if (rj2.contains("timing")) {
            summary["median_ms"] = rj2["timing"]["median_ms"];
            summary["gb_per_s"] = rj2["timing"]["gb_per_s"];
            summary["gflop_per_s"] = rj2["timing"]["gflop_per_s"];
            std::ostringstream t;
            t << std::setprecision(4) << rj2["timing"]["median_ms"].get<double>() << " ms, "
              << rj2["timing"]["gb_per_s"].get<double>() << " GB/s, " << rj2["timing"]["gflop_per_s"].get<double>()
              << " GFLOP/s";
            line += " (" + t.str() + ")";
          } else if (rj2.contains("run")) {
            line += " (" + rj2["run"].value("not_timed", std::string("not timed")) + ")";
          }
          if (result != "PASS" && result != "NOT RUN")
            line += ": a proven kernel disagreed with its spec when run; this is a bug in ksynth or in its float "
                    "tolerance (" + fs::absolute(dir / "kernel-run.json").string() + ")";
          report["run"] = summary;
          say(line);
        } else {
          report["run"] = {{"result", "error"}, {"error", "ksynth run " + pr.how(900) + ": " + pr.output.substr(0, 500)}};
          say("run: ksynth run " + pr.how(900));
        }
      }
      saveReport("proven");
      say("proven kernel: " + (dir / "kernel.cu").string() + "   proof: " + (dir / "proof").string() + "/");
      res.exitCode = kExitProven;
      res.report = report;
      return res;
    }
    saveReport("running");
    conv.turns.push_back({models::Role::User, feedback});
  }

  // The budget ran out: the best candidate and what it failed.
  const Candidate *best = nullptr;
  for (const Candidate &c : cands)
    if (!best || c.rank() >= best->rank())
      best = &c;
  std::string status = "budget-exhausted";
  res.exitCode = kExitBudget;
  if (best && best->checked && (best->check.verdict() == "unknown" || best->check.verdict() == "bounded"))
    status = "inconclusive", res.exitCode = kExitInconclusive;
  report["verdict"] = status == "inconclusive" ? best->check.verdict() : "not-proven";
  if (best && best->checked) {
    report["best"] = {{"round", best->round},
                      {"candidate", fs::absolute(dir / ("round-" + std::to_string(best->round)) / "candidate.cu").string()},
                      {"verdict", best->check.verdict()},
                      {"proven", best->check.proven()},
                      {"total", best->check.total()},
                      {"failing", failingObligations(best->check)}};
    say("no proven kernel after " + std::to_string(o.rounds) + " round(s); best candidate: round " +
        std::to_string(best->round) + " (" + best->check.verdict() + ", " + std::to_string(best->check.proven()) + "/" +
        std::to_string(best->check.total()) + " obligations proven): " +
        (dir / ("round-" + std::to_string(best->round)) / "candidate.cu").string());
    for (const std::string &f : failingObligations(best->check))
      say("  " + f);
  } else {
    say("no proven kernel after " + std::to_string(o.rounds) + " round(s); no candidate could be checked");
  }
  saveReport(status);
  res.report = report;
  return res;
}

} // namespace ksynth::synth
