// `ksynth --spec SPEC.smt --prove [options]`: the synthesis loop's options, the model client
// (provider, replay, resume) and the run directory; synth/loop.h does the rounds.
#include "cli/commands.h"
#include "cli/options.h"

#include "synth/fixture.h"
#include "synth/loop.h"
#include "util/exit_codes.h"
#include "verify/spec/parser.h"

#include "models/presets.h"
#include "models/transcript.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>


namespace ksynth::cli {

using namespace ksynth::synth;

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

int usage(std::ostream &err, const std::string &msg) {
  err << "ksynth: error: " << msg << "\n" << kProveUsage;
  return kExitUsage;
}

std::string timestamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H-%M-%SZ", &tm);
  return buf;
}


struct ProveArgs {
  std::string spec, provider, model, out, replay, resume, nvcc;
  int rounds = 5, samples = 1, optimize = 0;
  bool roundsSet = false, samplesSet = false, optimizeSet = false, prove = false, quiet = false, json = false, noRun = false;
  bool timeoutSet = false, maxTokensSet = false;
  double timeoutS = 10;
  int maxTokens = 0;
};

// More optimize rounds than this is a typo, not a plan (each is a paid request).
constexpr int kMaxOptimize = 100;

// More parallel requests than this is a typo, not a plan (each is a paid request).
constexpr int kMaxSamples = 64;

// The options of `--prove`; an exit code (the usage error printed) on a bad one.
std::optional<int> parseProveArgs(const std::vector<std::string> &args, ProveArgs &pa, std::ostream &err) {
  Options opt(args);
  while (opt.next()) {
    const std::string &a = opt.arg();
    auto is = [&](const std::string &flag) { return opt.is(flag); };
    auto need = [&](const std::string &flag, std::string &dest) {
      auto v = opt.value(flag);
      if (!v || v->empty())
        return false;
      dest = *v;
      return true;
    };
    if (a == "--prove") {
      pa.prove = true;
    } else if (a == "--quiet" || a == "-q") {
      pa.quiet = true;
    } else if (a == "--json") {
      pa.json = true;
    } else if (a == "--no-compile") {
      pa.nvcc = "none";
    } else if (a == "--no-run") {
      pa.noRun = true;
    } else if (is("--spec")) {
      if (!need("--spec", pa.spec))
        return usage(err, "--spec needs a spec file");
    } else if (is("--provider")) {
      if (!need("--provider", pa.provider))
        return usage(err, "--provider needs a name (anthropic, openai, openai-compatible, replay)");
    } else if (is("--model")) {
      if (!need("--model", pa.model))
        return usage(err, "--model needs a model id or preset name");
    } else if (is("--out")) {
      if (!need("--out", pa.out))
        return usage(err, "--out needs a directory");
    } else if (is("--replay")) {
      if (!need("--replay", pa.replay))
        return usage(err, "--replay needs a transcript file");
    } else if (is("--resume")) {
      if (!need("--resume", pa.resume))
        return usage(err, "--resume needs a run directory");
    } else if (is("--nvcc")) {
      if (!need("--nvcc", pa.nvcc))
        return usage(err, "--nvcc needs a path or 'none'");
    } else if (is("--rounds") || is("--timeout") || is("--max-tokens") || is("--samples") || is("--optimize")) {
      std::string flag = a.substr(0, a.find('=')), v;
      if (!need(flag, v))
        return usage(err, flag + " needs a number");
      // --optimize 0 (the default) is allowed; every other count is at least 1.
      double hi = flag == "--timeout" ? 1e6 : flag == "--samples" ? kMaxSamples : flag == "--optimize" ? kMaxOptimize : 1e9;
      std::optional<double> n = parseNumber(v, flag == "--optimize" ? 0 : 1e-9, hi);
      if (!n || (flag != "--timeout" && *n != static_cast<int>(*n))) {
        std::string what = flag == "--timeout"    ? "a positive number"
                           : flag == "--optimize" ? "an integer from 0 to " + std::to_string(kMaxOptimize)
                           : flag == "--samples"  ? "an integer from 1 to " + std::to_string(kMaxSamples)
                                                  : "a positive integer";
        return usage(err, flag + " needs " + what + " (got '" + v + "')");
      }
      double d = *n;
      if (flag == "--rounds")
        pa.rounds = static_cast<int>(d), pa.roundsSet = true;
      else if (flag == "--samples")
        pa.samples = static_cast<int>(d), pa.samplesSet = true;
      else if (flag == "--optimize")
        pa.optimize = static_cast<int>(d), pa.optimizeSet = true;
      else if (flag == "--timeout")
        pa.timeoutS = d, pa.timeoutSet = true;
      else
        pa.maxTokens = static_cast<int>(d), pa.maxTokensSet = true;
    } else {
      return usage(err, "unknown option '" + a + "' for --prove");
    }
  }
  return std::nullopt;
}

// --resume DIR: what the interrupted run was asked, from its run.json, where this invocation
// does not say otherwise.
std::optional<int> restoreResumed(ProveArgs &pa, std::ostream &err) {
  if (pa.resume.empty())
    return std::nullopt;
  json resumed;
  {
    std::ifstream in(fs::path(pa.resume) / "run.json");
    try {
      resumed = json::parse(in);
    } catch (const json::exception &) {
      err << "ksynth: error: '" << pa.resume << "' is not a run directory (no readable run.json)\n";
      return kExitUsage;
    }
    // The spec and the samples per round shape the conversation: a resumed run must keep them.
    std::string was = resumed.value("spec", "");
    std::error_code sameEc;
    bool same = pa.spec.empty() || was.empty() || fs::equivalent(pa.spec, was, sameEc);
    if (sameEc)
      same = fs::absolute(pa.spec) == fs::path(was);
    if (!same) {
      err << "ksynth: error: --resume: the run in '" << pa.resume << "' is for the spec " << was
          << "; a resumed run keeps its spec (leave out --spec)\n";
      return kExitUsage;
    }
    if (pa.samplesSet && resumed.contains("samples") && resumed["samples"] != pa.samples) {
      err << "ksynth: error: --resume: the run in '" << pa.resume << "' asked for " << resumed["samples"].dump()
          << " sample(s) per round; a resumed run keeps that number (leave out --samples)\n";
      return kExitUsage;
    }
    if (pa.spec.empty())
      pa.spec = was;
    if (!pa.roundsSet)
      pa.rounds = resumed.value("rounds", pa.rounds);
    if (!pa.samplesSet)
      pa.samples = resumed.value("samples", pa.samples);
    // What the verifier and the runner were told: a different timeout could change verdicts,
    // and so the conversation, and ask again for replies that are recorded.
    if (!pa.timeoutSet && resumed.contains("verify_timeout_s") && resumed["verify_timeout_s"].is_number())
      pa.timeoutS = resumed["verify_timeout_s"].get<double>();
    if (!pa.maxTokensSet && resumed.contains("max_tokens") && resumed["max_tokens"].is_number_integer())
      pa.maxTokens = resumed["max_tokens"].get<int>();
    if (resumed.value("no_run", false))
      pa.noRun = true;
    if (!pa.optimizeSet)
      pa.optimize = resumed.value("optimize", pa.optimize);
    if (pa.provider.empty())
      pa.provider = resumed.value("provider", "");
    if (pa.model.empty())
      pa.model = resumed.value("model", "");
    if (pa.replay.empty() && resumed.value("provider", "") == "replay")
      pa.replay = resumed.value("replay", "");
    if (pa.nvcc.empty() && resumed.contains("nvcc") && resumed["nvcc"].is_null())
      pa.nvcc = "none";
    pa.out = pa.resume;
    pa.prove = true;
  }
  return std::nullopt;
}

// The model: --replay FILE or --provider, else whichever key is set; its client options and
// what run.json records of it.
std::optional<int> chooseModel(ProveArgs &pa, const std::string &specName, models::ClientOptions &copts,
                               json &runInfo, std::ostream &err) {
  if (!pa.replay.empty() && pa.provider.empty())
    pa.provider = "replay";
  if (std::optional<int> code = resolveProvider(pa.provider, pa.model, err))
    return *code;

  runInfo = {{"provider", pa.provider}};
  if (pa.provider == "replay") {
    if (pa.replay.empty()) {
      fs::path f = fs::path(fixtureDir()) / (specName + ".jsonl");
      if (!fs::exists(f)) {
        std::string list;
        for (const std::string &n : bundledSpecs())
          list += (list.empty() ? "" : ", ") + n;
        err << "ksynth: error: --provider replay: no bundled transcript for spec '" << specName << "' in "
            << fixtureDir() << " (bundled: " << (list.empty() ? "none" : list)
            << "); give a recorded run with --replay FILE\n";
        return kExitUsage;
      }
      pa.replay = f.string();
    }
    copts.model.provider = "replay";
    copts.model.replayPath = pa.replay;
    runInfo["replay"] = fs::absolute(pa.replay).string();
  } else {
    std::string perr;
    std::optional<models::ModelConfig> preset = models::loadPreset(pa.model, perr);
    if (preset && preset->provider == pa.provider) {
      copts.model = *preset;
    } else {
      copts.model.provider = pa.provider;
      copts.model.model = pa.model;
    }
    if (pa.maxTokens > 0)
      copts.model.maxTokens = pa.maxTokens;
    runInfo["model"] = copts.model.model;
    runInfo["api"] = copts.model.api;
    if (!copts.model.presetName.empty())
      runInfo["preset"] = copts.model.presetName;
  }
  return std::nullopt;
}

// The run directory, and its transcript (appended to when resuming).
std::optional<int> openRunDirectory(ProveArgs &pa, const std::string &specName,
                                    std::shared_ptr<models::Transcript> &transcript, std::ostream &err) {
  if (pa.out.empty()) {
    fs::path base = fs::path("out") / specName / timestamp();
    pa.out = base.string();
    for (int n = 2; fs::exists(pa.out); ++n)
      pa.out = base.string() + "-" + std::to_string(n);
  } else if (pa.resume.empty() && fs::exists(fs::path(pa.out) / "run.json")) {
    err << "ksynth: error: '" << pa.out << "' already holds a run; continue it with --resume " << pa.out
        << " or choose another --out\n";
    return kExitUsage;
  }
  std::error_code ec;
  fs::create_directories(pa.out, ec);
  if (ec) {
    err << "ksynth: error: cannot create the output directory '" << pa.out << "': " << ec.message() << "\n";
    return kExitUsage;
  }
  std::string terr;
  transcript = models::Transcript::open((fs::path(pa.out) / "transcript.jsonl").string(), terr);
  if (!transcript) {
    err << "ksynth: error: " << terr << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

} // namespace

std::vector<std::string> bundledSpecs() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(fixtureDir(), ec))
    if (e.path().extension() == ".jsonl")
      names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<int> resolveProvider(std::string &provider, std::string &model, std::ostream &err) {
  if (provider.empty() && !model.empty()) {
    std::string perr;
    if (auto p = models::loadPreset(model, perr))
      provider = p->provider;
  }
  if (provider.empty()) {
    if (!envOr("ANTHROPIC_API_KEY").empty())
      provider = "anthropic";
    else if (!envOr("OPENAI_API_KEY").empty())
      provider = "openai";
    else {
      err << "ksynth: error: no language model to ask: set ANTHROPIC_API_KEY (Anthropic) or OPENAI_API_KEY "
             "(OpenAI, or OPENAI_BASE_URL for an OpenAI-compatible server) and pick one with --provider, or run "
             "offline on the bundled transcripts with --provider replay\n";
      return kExitUsage;
    }
  }
  if (provider != "replay" && model.empty()) {
    if (provider == "anthropic")
      model = "claude-sonnet-4-5";
    else if (provider == "openai")
      model = "gpt-5";
    else if (provider == "openai-compatible") {
      err << "ksynth: error: --provider openai-compatible needs --model (the id the server serves)\n";
      return kExitUsage;
    }
  }
  return std::nullopt;
}

int proveCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  ProveArgs pa;
  if (std::optional<int> code = parseProveArgs(args, pa, err))
    return *code;
  if (std::optional<int> code = restoreResumed(pa, err))
    return *code;
  if (!pa.prove)
    return usage(err, "--spec without --prove: did you mean 'ksynth --spec SPEC.smt --prove' (synthesis) or "
                      "'ksynth verify KERNEL.cu --spec SPEC.smt'?");
  if (pa.spec.empty())
    return usage(err, "--prove needs --spec SPEC.smt");
  if (!std::ifstream(pa.spec)) {
    err << "ksynth: error: cannot read spec '" << pa.spec << "'\n";
    return kExitMalformed;
  }
  spec::ParseResult parsed = spec::parseFile(pa.spec);
  if (!parsed.spec) {
    for (const spec::Diagnostic &d : parsed.errors)
      err << spec::format(pa.spec, d) << "\n";
    err << "ksynth: error: spec '" << pa.spec << "' is malformed\n";
    return kExitMalformed;
  }
  const std::string specName = parsed.spec->name;

  models::ClientOptions copts;
  json runInfo;
  if (std::optional<int> code = chooseModel(pa, specName, copts, runInfo, err))
    return *code;
  std::shared_ptr<models::Transcript> transcript;
  if (std::optional<int> code = openRunDirectory(pa, specName, transcript, err))
    return *code;
  copts.transcript = transcript;

  std::unique_ptr<models::Client> base;
  FixtureInfo info;
  bool authored = false;
  if (pa.provider == "replay") {
    std::string ferr;
    if (!readFixtureInfo(pa.replay, info, ferr)) {
      err << "ksynth: error: --replay: " << ferr << "\n";
      return kExitUsage;
    }
    authored = info.authored;
    if (authored) {
      if (!info.spec.empty() && info.spec != specName) {
        err << "ksynth: error: the transcript " << pa.replay << " was written for spec '" << info.spec << "', not '"
            << specName << "'\n";
        return kExitUsage;
      }
      auto fc = FixtureClient::open(pa.replay, transcript, ferr);
      if (!fc) {
        err << "ksynth: error: --replay: " << ferr << "\n";
        return kExitUsage;
      }
      base = std::move(fc);
    }
    runInfo["replay_authored"] = authored;
  }
  if (!base) {
    models::Error merr;
    base = models::makeClient(copts, merr);
    if (!base) {
      err << "ksynth: error: " << merr.message << "\n";
      if (pa.provider != "replay")
        err << "ksynth: note: to run offline without a key, use --provider replay\n";
      return kExitUsage;
    }
  }
  models::Client *client = base.get();
  std::unique_ptr<FixtureClient> resumeClient;
  if (!pa.resume.empty()) {
    // Built from the transcript as it was before this run appends to it.
    std::string rerr;
    resumeClient = FixtureClient::open((fs::path(pa.resume) / "transcript.jsonl").string(), nullptr, rerr,
                                       base.get(), /*okOnly=*/true);
    if (!resumeClient) {
      err << "ksynth: error: --resume: " << rerr << "\n";
      return kExitUsage;
    }
    client = resumeClient.get();
    runInfo["resumed"] = models::utcNow();
  }

  runInfo["no_run"] = pa.noRun;
  if (pa.maxTokens > 0)
    runInfo["max_tokens"] = pa.maxTokens;

  LoopOptions lo;
  lo.specPath = pa.spec;
  lo.rounds = pa.rounds;
  lo.samples = pa.samples;
  lo.optimize = pa.optimize;
  lo.outDir = pa.out;
  lo.nvcc = pa.nvcc;
  lo.verifyTimeoutS = pa.timeoutS;
  lo.progress = !pa.quiet && !pa.json;
  lo.out = &out;
  lo.runInfo = runInfo;
  lo.providerText = base->describe();
  lo.model = copts.model;
  if (!pa.noRun) {
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
      lo.runWith = self.string();
  }
  if (lo.progress) {
    out << "ksynth: spec " << specName << ", " << lo.providerText << ", up to " << pa.rounds << " round(s)"
        << (pa.samples > 1 ? " of " + std::to_string(pa.samples) + " samples" : "")
        << (pa.optimize > 0 ? " then " + std::to_string(pa.optimize) + " optimize round(s)" : "") << "; run directory "
        << pa.out << "\n";
    if (authored)
      out << "ksynth: note: the replies in this transcript were written by hand for this demo (an authored "
             "fixture, not a model's output); every verdict below is computed now by the verifier\n";
  }
  lo.stop = &interruptFlag();
  catchInterrupt();
  LoopResult r = runLoop(lo, *client);
  if (resumeClient && lo.progress)
    out << "ksynth: resumed: " << resumeClient->answered() << " request(s) answered from the transcript, not sent again\n";
  if (!r.error.empty())
    err << (r.error.rfind("ksynth:", 0) == 0 ? "" : "ksynth: error: ") << r.error << "\n";
  if (auto *fc = dynamic_cast<FixtureClient *>(base.get()); fc && fc->wordingDiffers() && lo.progress)
    out << "ksynth: note: " << fc->wordingDiffers()
        << " request(s) differ in wording from the recorded ones (the verifier may pick other counterexamples "
           "than when the fixture was built); the replies are matched by round\n";
  if (pa.json && r.report.is_object())
    out << r.report.dump(2) << "\n";
  else if (pa.quiet) {
    if (r.exitCode == kExitProven)
      out << "proven kernel: " << (fs::path(pa.out) / "kernel.cu").string() << "\n";
    else if (r.error.empty())
      out << "no proven kernel; report: " << (fs::path(pa.out) / "report.json").string() << "\n";
  }
  return r.exitCode;
}

} // namespace ksynth::cli
